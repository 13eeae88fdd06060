/**
 * The body of a list page as sent (pkg/server/send-json.ts writes a long page item by item): the same bytes
 * `JSON.stringify` gives, each item the same bytes a GET of it answers, a Content-Length that counts them, as JSON
 * and as a Table; and the resourceVersion of an empty page (storage reads it with the page in one snapshot).
 */
import supertest from 'supertest';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
/** More than send-json.ts's threshold, so the page is written piece by piece. */
const COUNT = 24;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  for (let i = 0; i < COUNT; i++) {
    // Titles that JSON escapes: quotes, a backslash, a line separator, non-ASCII, an astral character.
    const title = `Δ board ${i} "quoted" \\ \u2028 😀`;
    const res = await t.as.post(DASHBOARDS).send({ metadata: { name: `board-${String(i).padStart(2, '0')}`, labels: { n: String(i % 3) } }, spec: { title, panels: [{ id: 1, threshold: 0.1 + 0.2 }] } });
    expect(res.status).toBe(201);
  }
});

afterAll(() => t?.close());

describe('a list page as sent', () => {
  it('is JSON.stringify of the list, its Content-Length its byte length, each item byte for byte what a GET answers', async () => {
    const page = await t.as.get(`${DASHBOARDS}?limit=100`).buffer(true).parse(textParser);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    const text = page.body as string;
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(text));
    const list = JSON.parse(text) as { kind: string; metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe('DashboardList');
    expect(list.items).toHaveLength(COUNT);
    expect(text).toBe(JSON.stringify(list));
    for (const item of list.items) {
      const one = await t.as.get(`${DASHBOARDS}/${item.metadata.name}`).buffer(true).parse(textParser);
      expect(one.status).toBe(200);
      expect(JSON.stringify(item)).toBe(one.body);
      expect(text).toContain(one.body as string);
    }
  });

  it('as a Table: the exact Content-Type, one row per object, a Content-Length that counts its bytes', async () => {
    const page = await t.as.get(`${DASHBOARDS}?limit=100`).set('Accept', TABLE).buffer(true).parse(textParser);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe(TABLE);
    const text = page.body as string;
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(text));
    const table = JSON.parse(text) as { kind: string; rows: { cells: unknown[] }[] };
    expect(table.kind).toBe('Table');
    expect(table.rows).toHaveLength(COUNT);
    expect(table.rows[0].cells[0]).toBe('board-00');
    expect(text).toBe(JSON.stringify(table));
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const get = await t.as.get(`${DASHBOARDS}?limit=100`);
    const head = await supertest(t.app).head(`${DASHBOARDS}?limit=100`).auth(ADMIN.user, ADMIN.password);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('a filtered page keeps its items in name order, with the continue token after its last', async () => {
    const first = await t.as.get(`${DASHBOARDS}?limit=5&labelSelector=n%3D1`);
    expect(first.status).toBe(200);
    const names = (first.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    expect(names).toEqual(['board-01', 'board-04', 'board-07', 'board-10', 'board-13']);
    const next = await t.as.get(`${DASHBOARDS}?limit=5&labelSelector=n%3D1&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    expect((next.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual(['board-16', 'board-19', 'board-22']);
  });

  it('an empty page carries the collection’s current resourceVersion, the same as a full page read at the same time', async () => {
    const full = await t.as.get(DASHBOARDS);
    const empty = await t.as.get(`${DASHBOARDS}?labelSelector=n%3Dnone`);
    expect(empty.status).toBe(200);
    expect(empty.body.items).toEqual([]);
    expect(empty.body.metadata.resourceVersion).toBe(full.body.metadata.resourceVersion);
    // A write moves it; the empty page follows.
    expect((await t.as.post(DASHBOARDS).send({ metadata: { name: 'later' }, spec: { title: 'Later' } })).status).toBe(201);
    const after = await t.as.get(`${DASHBOARDS}?labelSelector=n%3Dnone`);
    expect(after.body.items).toEqual([]);
    expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Number(full.body.metadata.resourceVersion));
    expect(after.body.metadata.resourceVersion).toBe((await t.as.get(`${DASHBOARDS}/later`)).body.metadata.resourceVersion);
  });
});

/** The body as text, unparsed: the bytes are what the test is about. */
function textParser(res: supertest.Response, done: (err: Error | null, body: string) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}
