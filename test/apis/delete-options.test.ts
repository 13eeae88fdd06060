/**
 * DeleteOptions in a DELETE's body, decoded as kube-apiserver decodes them: a body that does not decode is a 400, an
 * unsupported value a 422 Status, and neither deletes anything (a caller who asked for a dry run must not lose data).
 */
import { startTestApp, type TestApp } from '../support/app';
import { FOLDERS, PLAYLISTS } from '../support/paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const playlist = async (name: string) => {
  const res = await t.as.post(PLAYLISTS).send({ metadata: { name }, spec: { title: name, interval: '5m', items: [] } });
  expect(res.status).toBe(201);
};

describe('DELETE with DeleteOptions in the body', () => {
  it('refuses a body that does not decode or holds an unsupported value, and deletes nothing', async () => {
    await playlist('keep-me');
    await t.as.post(FOLDERS).send({ metadata: { name: 'keep-folder' }, spec: { title: 'Keep folder' } }).expect(201);
    const cases: [string, string, unknown, number, RegExp][] = [
      ['dryRun a string', PLAYLISTS, { dryRun: 'All' }, 400, /^DeleteOptions\.dryRun: /],
      ['dryRun an unknown value', PLAYLISTS, { dryRun: ['Bogus'] }, 422, /^DeleteOptions\.meta\.k8s\.io "" is invalid: dryRun: Unsupported value: \["Bogus"\]: supported values: "All"$/],
      ['propagationPolicy unknown', FOLDERS, { propagationPolicy: 'Bogus' }, 422, /propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan"$/],
      ['gracePeriodSeconds a string', PLAYLISTS, { gracePeriodSeconds: 'x' }, 400, /^DeleteOptions\.gracePeriodSeconds: /],
      ['orphanDependents a string', PLAYLISTS, { orphanDependents: 'yes' }, 400, /^DeleteOptions\.orphanDependents: /],
      ['orphanDependents with propagationPolicy', PLAYLISTS, { orphanDependents: true, propagationPolicy: 'Orphan' }, 422, /orphanDependents and deletionPropagation cannot be both set/],
      ['preconditions not strings', PLAYLISTS, { preconditions: { uid: 7 } }, 400, /^DeleteOptions\.preconditions must hold string uid and resourceVersion$/],
      ['an array', PLAYLISTS, [1], 400, /^DeleteOptions must be a JSON object$/],
    ];
    for (const [label, collection, body, code, message] of cases) {
      const name = collection === FOLDERS ? 'keep-folder' : 'keep-me';
      const res = await t.as.delete(`${collection}/${name}`).send(body as object);
      expect([label, res.status, res.body.kind, res.body.status]).toEqual([label, code, 'Status', 'Failure']);
      expect([label, res.body.message]).toEqual([label, expect.stringMatching(message)]);
    }
    await t.as.get(`${PLAYLISTS}/keep-me`).expect(200);
    await t.as.get(`${FOLDERS}/keep-folder`).expect(200);
  });

  it('honours the dry run and the options kubectl sends, with kind and apiVersion', async () => {
    await playlist('dry-body');
    const dry = await t.as.delete(`${PLAYLISTS}/dry-body`).send({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'] });
    expect(dry.status).toBe(200);
    await t.as.get(`${PLAYLISTS}/dry-body`).expect(200);
    const real = await t.as.delete(`${PLAYLISTS}/dry-body`).send({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', gracePeriodSeconds: 0, preconditions: { uid: null } });
    expect(real.status).toBe(200);
    await t.as.get(`${PLAYLISTS}/dry-body`).expect(404);
  });
});
