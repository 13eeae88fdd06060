/**
 * Kept answers of /apis reads (pkg/server/answer-cache.ts): a repeated JSON GET of an object or a list page is
 * answered by one statement (every type's version) and the bytes sent before, and never after anything stored
 * changed nor to another caller. Through HTTP on both backends; two processes on one database in read-scope.test.ts.
 */
import { AnswerCache } from '../../pkg/server/answer-cache';
import { startTestApp, type TestApp } from '../support/app';
import { testBackend } from '../support/backend';
import { createUser, PASSWORD } from '../support/users';

const DASHBOARDS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
const VERSIONS_ONLY = /^(\/\* prepared \*\/ )?select coalesce\(json_agg\(.*\)::text as "versions" from "resource_version"$/;
/**
 * The statements of a kept answer: the versions, except on the embedded database, which this process alone writes,
 * so it knows them without a statement until it writes (storage/postgres/sole-writer.ts).
 */
const KEPT = testBackend() === 'embedded' ? [] : [expect.stringMatching(VERSIONS_ONLY)];
/** Whether `sql` reads more than the versions: an answer computed. */
const computes = (sql: string[]) => sql.some((s) => !VERSIONS_ONLY.test(s));

describe('kept answers of /apis reads', () => {
  let t: TestApp;
  let counting = false;
  const statements: string[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    t.storage.observeQueries((_seconds, _failed, sql) => counting && statements.push(sql.replace(/\s+/g, ' ').trim()));
    await t.as.post('/api/folders').send({ uid: 'open', title: 'Open' }).expect(200);
    await t.as.post('/api/folders').send({ uid: 'closed', title: 'Closed' }).expect(200);
    await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'a', title: 'A' }, folderUid: 'open' }).expect(200);
    await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'b', title: 'B' }, folderUid: 'closed' }).expect(200);
    // Only Admins see the closed folder's dashboards.
    await t.as.post('/api/folders/closed/permissions').send({ items: [{ role: 'Admin', permission: 4 }] }).expect(200);
    await createUser(t, 'viewer', { 1: 'Viewer' });
  }, 60_000);
  afterAll(() => t.close());

  async function counted<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    statements.length = 0;
    counting = true;
    try {
      return { result: await request(), sql: [...statements] };
    } finally {
      counting = false;
    }
  }
  const names = (body: { items: { metadata: { name: string } }[] }) => body.items.map((i) => i.metadata.name).sort();

  it('a repeated GET of a list page or of an object is one statement, the versions, and the same bytes', async () => {
    for (const path of [`${DASHBOARDS}?limit=100`, `${DASHBOARDS}/a`]) {
      const first = await t.as.get(path).expect(200);
      const again = await counted(() => t.as.get(path).expect(200));
      expect(again.sql).toEqual(KEPT);
      expect(again.result.text).toBe(first.text);
      expect(again.result.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(again.result.headers['content-length'])).toBe(Buffer.byteLength(first.text));
    }
  });

  it('the legacy GET of a dashboard is kept too: the versions alone, the same bytes; a star or another caller changes its meta', async () => {
    const path = '/api/dashboards/uid/a';
    const first = await t.as.get(path).expect(200);
    expect(first.body.meta.isStarred).toBe(false);
    const again = await counted(() => t.as.get(path).expect(200));
    expect(again.sql).toEqual([expect.stringMatching(VERSIONS_ONLY)]);
    expect(again.result.text).toBe(first.text);
    await t.as.post('/api/user/stars/dashboard/uid/a').expect(200);
    expect((await t.as.get(path).expect(200)).body.meta.isStarred).toBe(true);
    const viewer = await t.anonymous.get(path).auth('viewer', PASSWORD).expect(200);
    expect([viewer.body.meta.isStarred, viewer.body.meta.canEdit]).toEqual([false, false]);
    expect((await t.as.get(path).expect(200)).body.meta.canEdit).toBe(true);
  });

  it('an object read for the first time is read with the versions (one statement); once changed, two (the versions, then the object)', async () => {
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'fresh' }, spec: { title: 'Fresh' } }).expect(201);
    const first = await counted(() => t.as.get(`${DASHBOARDS}/fresh`).expect(200));
    expect(first.sql).toEqual([expect.stringMatching(/from "resource_version"\) v left join "resource" r on/)]);
    const current = first.result.body;
    await t.as.put(`${DASHBOARDS}/fresh`).send({ ...current, spec: { title: 'Changed' } }).expect(200);
    const changed = await counted(() => t.as.get(`${DASHBOARDS}/fresh`).expect(200));
    expect(changed.result.body.spec.title).toBe('Changed');
    expect(changed.sql).toHaveLength(2);
    await t.as.delete(`${DASHBOARDS}/fresh`).expect(200);
  });

  it('a write in between is in the next answer, and the new answer is kept in turn', async () => {
    const page = `${DASHBOARDS}?limit=50`;
    expect(names((await t.as.get(page).expect(200)).body)).toEqual(['a', 'b']);
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'c' }, spec: { title: 'C' } }).expect(201);
    const after = await counted(() => t.as.get(page).expect(200));
    expect(names(after.result.body)).toEqual(['a', 'b', 'c']);
    expect(after.sql.length).toBeGreaterThan(1);
    const current = (await t.as.get(`${DASHBOARDS}/c`).expect(200)).body;
    await t.as.put(`${DASHBOARDS}/c`).send({ ...current, spec: { ...current.spec, title: 'C2' } }).expect(200);
    expect((await t.as.get(`${DASHBOARDS}/c`).expect(200)).body.spec.title).toBe('C2');
    await t.as.delete(`${DASHBOARDS}/c`).expect(200);
    await t.as.get(`${DASHBOARDS}/c`).expect(404);
    expect(names((await t.as.get(page).expect(200)).body)).toEqual(['a', 'b']);
    expect((await counted(() => t.as.get(page).expect(200))).sql).toEqual(KEPT);
  });

  it('/metrics counts the answers sent kept and computed, and the bytes kept', async () => {
    const sample = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    const before = (await t.anonymous.get('/metrics').expect(200)).text;
    await t.as.get(`${DASHBOARDS}?limit=7`).expect(200);
    await t.as.get(`${DASHBOARDS}?limit=7`).expect(200);
    const after = (await t.anonymous.get('/metrics').expect(200)).text;
    const kept = 'dashboard_apiserver_apis_answers_total{source="kept"}';
    const computed = 'dashboard_apiserver_apis_answers_total{source="computed"}';
    expect(sample(after, kept) - (sample(before, kept) || 0)).toBe(1);
    expect(sample(after, computed) - sample(before, computed)).toBe(1);
    expect(sample(after, 'dashboard_apiserver_apis_answers_kept_bytes')).toBeGreaterThan(sample(before, 'dashboard_apiserver_apis_answers_kept_bytes'));
  });

  it('each caller gets its own answer: a Viewer never gets the Admin\'s, and a changed permission is in its next one', async () => {
    const page = `${DASHBOARDS}?limit=20`;
    const asViewer = () => t.anonymous.get(page).auth('viewer', PASSWORD).expect(200);
    expect(names((await t.as.get(page).expect(200)).body)).toEqual(['a', 'b']);
    expect(names((await asViewer()).body)).toEqual(['a']);
    expect(names((await asViewer()).body)).toEqual(['a']);
    await t.anonymous.get(`${DASHBOARDS}/b`).auth('viewer', PASSWORD).expect(403);
    await t.as.get(`${DASHBOARDS}/b`).expect(200);
    await t.anonymous.get(`${DASHBOARDS}/b`).auth('viewer', PASSWORD).expect(403);

    await t.as.post('/api/folders/closed/permissions').send({ items: [{ role: 'Viewer', permission: 1 }] }).expect(200);
    expect(names((await asViewer()).body)).toEqual(['a', 'b']);
    await t.anonymous.get(`${DASHBOARDS}/b`).auth('viewer', PASSWORD).expect(200);
    await t.as.post('/api/folders/closed/permissions').send({ items: [{ role: 'Admin', permission: 4 }] }).expect(200);
    expect(names((await asViewer()).body)).toEqual(['a']);
    await t.anonymous.get(`${DASHBOARDS}/b`).auth('viewer', PASSWORD).expect(403);
    // A wrong password is refused whatever was kept for the login.
    await t.anonymous.get(page).auth('viewer', 'not-the-password').expect(401);
  });

  it('Tables are not kept (their ages move with the clock): each is computed', async () => {
    const table = () => t.as.get(`${DASHBOARDS}?limit=10`).set('Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io').expect(200);
    await table();
    const again = await counted(table);
    expect(again.result.body.kind).toBe('Table');
    expect(computes(again.sql)).toBe(true);
  });
});

describe('[registry] answer_cache_mb = 0', () => {
  it('keeps no answer: a repeated list page reads its rows again', async () => {
    const t = await startTestApp(['--registry.answer_cache_mb=0']);
    try {
      const statements: string[] = [];
      await t.as.post(DASHBOARDS).send({ metadata: { name: 'x' }, spec: { title: 'X' } }).expect(201);
      await t.as.get(`${DASHBOARDS}?limit=10`).expect(200);
      const stop = t.storage.observeQueries((_s, _f, sql) => statements.push(sql));
      const again = await t.as.get(`${DASHBOARDS}?limit=10`).expect(200);
      stop();
      expect(again.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['x']);
      expect(computes(statements)).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('AnswerCache (unit)', () => {
  // A request and a response as the cache uses them: the caller, the URL, and what is written.
  const request = (url: string, identity = 'user:u1') => ({ user: { identity, login: 'u', userId: 1, orgId: 1, isServerAdmin: false, orgRole: 'Viewer' }, originalUrl: url }) as any;
  function response() {
    const out = { headers: {} as Record<string, unknown>, body: [] as Buffer[] };
    const res = {
      setHeader: (k: string, v: unknown) => (out.headers[k.toLowerCase()] = v),
      cork: () => undefined,
      uncork: () => undefined,
      write: (b: Buffer | string) => out.body.push(Buffer.from(b)),
      end: () => undefined,
    } as any;
    return { res, text: () => Buffer.concat(out.body).toString(), out };
  }
  async function send(cache: AnswerCache, url: string, value: unknown, identity?: string): Promise<{ text: string; computed: boolean }> {
    const r = response();
    let computed = false;
    await cache.send(request(url, identity), r.res, async () => {
      computed = true;
      return value;
    });
    return { text: r.text(), computed };
  }

  it('sends the kept bytes while the stamp is the same, computes again when it moves', async () => {
    let stamp = '1:1:1';
    const cache = new AnswerCache(async () => stamp, { maxBytes: 2 ** 20 });
    expect(await send(cache, '/x', { v: 1 })).toEqual({ text: '{"v":1}', computed: true });
    expect(await send(cache, '/x', { v: 2 })).toEqual({ text: '{"v":1}', computed: false });
    expect(await send(cache, '/x', { v: 3 }, 'user:u2')).toEqual({ text: '{"v":3}', computed: true });
    stamp = '2:1:2';
    expect(await send(cache, '/x', { v: 4 })).toEqual({ text: '{"v":4}', computed: true });
    expect(cache.holds('/x')).toBe(true);
    expect(cache.holds('/y')).toBe(false);
  });

  it('keeps nothing without a stamp (outside a read scope)', async () => {
    const cache = new AnswerCache(async () => undefined, { maxBytes: 2 ** 20 });
    await send(cache, '/x', { v: 1 });
    expect(await send(cache, '/x', { v: 2 })).toEqual({ text: '{"v":2}', computed: true });
    expect(cache.stats()).toEqual({ answers: 0, bytes: 0 });
  });

  it('holds at most maxBytes, dropping the least recently sent first, and never an answer over maxAnswerBytes', async () => {
    // Each answer below is 10 bytes of JSON plus its key (caller and URL, two bytes a character).
    const keyBytes = 2 * ('user:u1\u00001\u0000Viewer\u00000\u0000'.length + '/a'.length);
    const cache = new AnswerCache(async () => 's', { maxBytes: 3 * (10 + keyBytes), maxAnswerBytes: 10 + keyBytes + 20 });
    const ten = (c: string) => c.repeat(8); // '"cccccccc"': 10 bytes
    await send(cache, '/a', ten('a'));
    await send(cache, '/b', ten('b'));
    await send(cache, '/c', ten('c'));
    expect(cache.stats()).toEqual({ answers: 3, bytes: 3 * (10 + keyBytes) });
    expect((await send(cache, '/a', 'x')).computed).toBe(false); // /a is now the most recent
    await send(cache, '/d', ten('d')); // /b goes
    expect(cache.stats()).toEqual({ answers: 3, bytes: 3 * (10 + keyBytes) });
    expect(cache.holds('/b')).toBe(false);
    expect((await send(cache, '/a', 'x')).computed).toBe(false);
    await send(cache, '/big', 'z'.repeat(30));
    expect(cache.holds('/big')).toBe(false);
    expect(cache.stats().bytes).toBeLessThanOrEqual(3 * (10 + keyBytes));
    // A longer URL counts: its 1-byte answer with a key 10 characters longer takes more than one 10-byte answer's room.
    await send(cache, `/${'u'.repeat(10)}`, 1);
    expect(cache.stats().answers).toBe(2);
  });
});
