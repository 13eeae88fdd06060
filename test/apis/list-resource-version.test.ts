/**
 * A list's `resourceVersion` and `resourceVersionMatch`, as kube-apiserver reads them: `Exact` answers the collection
 * as it was at that version (410 once history no longer holds it), unset or `NotOlderThan` the current one; the
 * combinations ValidateListOptions forbids are 422 ListOptions, a malformed version 400, a version past the current
 * one 400 (kube-apiserver waits for it, then answers 504; none is coming), and a version with `continue` 400.
 */
import { startTestApp, type TestApp } from '../support/app';
import { PLAYLISTS } from '../support/paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const create = (name: string) => t.as.post(PLAYLISTS).send({ metadata: { name }, spec: { title: name, interval: '5m', items: [] } }).expect(201);
const names = (body: { items: { metadata: { name: string } }[] }) => body.items.map((i) => i.metadata.name);

describe('list resourceVersion', () => {
  it('Exact reads the collection at that version; unset and NotOlderThan read the current one', async () => {
    await create('rv-a');
    const then = (await t.as.get(PLAYLISTS).expect(200)).body;
    await create('rv-b');
    await t.as.delete(`${PLAYLISTS}/rv-a`).expect(200);
    const rv = then.metadata.resourceVersion as string;
    const exact = (await t.as.get(`${PLAYLISTS}?resourceVersion=${rv}&resourceVersionMatch=Exact`).expect(200)).body;
    expect([exact.metadata.resourceVersion, names(exact)]).toEqual([rv, names(then)]);
    expect(names(exact)).toContain('rv-a');
    // Paged: the continue token keeps the version.
    const first = (await t.as.get(`${PLAYLISTS}?resourceVersion=${rv}&resourceVersionMatch=Exact&limit=1`).expect(200)).body;
    expect(first.metadata.resourceVersion).toBe(rv);
    for (const url of [`${PLAYLISTS}?resourceVersion=${rv}`, `${PLAYLISTS}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`, `${PLAYLISTS}?resourceVersion=0`]) {
      const now = (await t.as.get(url).expect(200)).body;
      expect([url, names(now)]).toEqual([url, expect.arrayContaining(['rv-b'])]);
      expect(names(now)).not.toContain('rv-a');
    }
  });

  it('refuses what kube-apiserver refuses, in its words', async () => {
    const current = Number((await t.as.get(PLAYLISTS).expect(200)).body.metadata.resourceVersion);
    const cases: [string, number, RegExp][] = [
      ['?resourceVersionMatch=Exact', 422, /^ListOptions\.meta\.k8s\.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided$/],
      ['?resourceVersion=1&resourceVersionMatch=Bogus', 422, /resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""/],
      ['?resourceVersion=0&resourceVersionMatch=Exact', 422, /resourceVersionMatch "exact" is forbidden for resourceVersion "0"/],
      ['?resourceVersion=1&resourceVersionMatch=Exact&continue=abc', 422, /resourceVersionMatch is forbidden when continue is provided/],
      ['?resourceVersion=abc', 400, /^invalid resourceVersion "abc": must be a non-negative integer$/],
      [`?resourceVersion=${current + 1000}`, 400, new RegExp(`^Too large resource version: ${current + 1000}, current: ${current}$`)],
      [`?resourceVersion=${current + 1000}&resourceVersionMatch=Exact`, 400, /^Too large resource version/],
      ['?resourceVersion=1&continue=abc', 400, /^specifying resource version is not allowed when using continue$/],
    ];
    for (const [q, code, message] of cases) {
      const res = await t.as.get(`${PLAYLISTS}${q}`);
      expect([q, res.status, res.body.kind, res.body.message]).toEqual([q, code, 'Status', expect.stringMatching(message)]);
    }
  });
});
