/**
 * Recording rules (the enterprise edition's recorded queries) through HTTP, on the test backend: the writer and the
 * rules' CRUD with the anchor's bodies, bad input (400 `{message}`, nothing stored), who may call each route, one
 * organization never seeing another's, POST /test evaluating through the data source plugins, and the evaluation
 * writing with the Prometheus remote write protocol to a real HTTP server that records what it receives (the same
 * against the real Prometheus: recording-rules-prometheus.test.ts). The open-source edition serves none of it.
 */
import { uncompressSync } from 'snappy';
import supertest from 'supertest';
import { recordingRuleKind, recordingRuleWriterKind } from '../../apis';
import { routeName } from '../../legacy-adapters';
import { recordingRulesArea } from '../../legacy-adapters/recording-rules';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { RecordingRules, WriteRequest } from '../../pkg/recording-rules';
import { startTestApp, type TestApp } from '../support/app';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream';
import { as, createUser, PASSWORD } from '../support/users';

jest.setTimeout(60_000);

const RULES = '/api/recording-rules';
const WRITER = '/api/recording-rules/writer';
const csv = (values: string, refId = 'A') => ({ refId, datasource: { uid: 'td', type: 'testdata' }, scenarioId: 'csv_metric_values', stringInput: values });
const rule = (over: Record<string, unknown> = {}) => ({ name: 'Kitchen', description: 'the kitchen', interval: 60, prom_name: 'svc_kitchen', queries: [csv('1,2,3')], ...over });

/** The rules of every organization as stored. */
async function stored(t: TestApp): Promise<unknown[]> {
  const rr = t.recordingRules!.deps.registry;
  const out: unknown[] = [];
  for (const org of await t.users.listOrgs()) out.push(...(await rr.list(t.recordingRules!.systemContext(rr.namespaces.of(org.id)), recordingRuleKind, {})).items.map((o) => o.spec));
  return out;
}

/** What one remote write carried: its series, each as labels and its samples. */
function decoded(body: Buffer): Array<{ labels: Record<string, string>; labelOrder: string[]; samples: Array<{ value: number; timestamp: number }> }> {
  const msg = WriteRequest.toObject(WriteRequest.decode(uncompressSync(body) as Buffer), { longs: Number, defaults: true }) as {
    timeseries: Array<{ labels: Array<{ name: string; value: string }>; samples: Array<{ value: number; timestamp: number }> }>;
  };
  return msg.timeseries.map((ts) => ({ labels: Object.fromEntries(ts.labels.map((l) => [l.name, l.value])), labelOrder: ts.labels.map((l) => l.name), samples: ts.samples }));
}

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 on every recording rule route and has no evaluator', async () => {
    for (const res of [
      await t.as.get(RULES),
      await t.as.post(RULES).send(rule()),
      await t.as.put(RULES).send({ id: '1', active: false }),
      await t.as.delete(`${RULES}/1`),
      await t.as.post(`${RULES}/test`).send(rule()),
      await t.as.get(WRITER),
      await t.as.post(WRITER).send({ data_source_uid: 'prom' }),
      await t.as.delete(WRITER),
    ]) expect([res.status, res.body]).toEqual([404, { message: 'Not found' }]);
    expect(t.recordingRules).toBeUndefined();
  });
});

describe('enterprise edition', () => {
  let t: TestApp;
  let up: RecordingUpstream;
  let org2: number;

  beforeAll(async () => {
    up = await startRecordingUpstream();
    t = await startTestApp(['--server.edition=enterprise']);
    expect((await t.as.post('/api/datasources').send({ name: 'TestData', uid: 'td', type: 'testdata', access: 'proxy' })).status).toBe(200);
    expect((await t.as.post('/api/datasources').send({ name: 'Receiver', uid: 'prom', type: 'prometheus', access: 'proxy', url: `${up.url}/base`, basicAuth: true, basicAuthUser: 'writer', secureJsonData: { basicAuthPassword: 'rw-secret' } })).status).toBe(200);
    org2 = (await t.users.createOrg(SYSTEM, 'Other')).id;
    await createUser(t, 'rr-viewer', { 1: 'Viewer' });
    await createUser(t, 'rr-editor', { 1: 'Editor' });
    await createUser(t, 'rr-admin', { 1: 'Admin' });
    await createUser(t, 'rr-other', { [org2]: 'Admin' });
    expect((await as(t, 'rr-other').post('/api/datasources').send({ name: 'TestData 2', uid: 'td2', type: 'testdata', access: 'proxy' })).status).toBe(200);
    expect((await as(t, 'rr-other').post('/api/datasources').send({ name: 'Receiver 2', uid: 'prom2', type: 'prometheus', access: 'proxy', url: `${up.url}/other` })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await up.close();
  });
  beforeEach(async () => {
    // Each test starts with no rules and no writer in org 1.
    for (const r of (await t.as.get(RULES)).body as Array<{ id: string }>) await t.as.delete(`${RULES}/${r.id}`).expect(200);
    await t.as.delete(WRITER);
    up.reset();
  });

  it('sets, reads, replaces and deletes the remote write target, 422 for a data source that is no Prometheus', async () => {
    expect([(await t.as.get(WRITER)).status, (await t.as.get(WRITER)).body]).toEqual([404, { message: 'Remote write target not found' }]);
    const missing = await t.as.post(WRITER).send({ data_source_uid: 'nope' });
    expect([missing.status, missing.body.message]).toEqual([422, 'data_source_uid: "nope" is not a Prometheus data source of this organization']);
    expect((await t.as.post(WRITER).send({ data_source_uid: 'td' })).status).toBe(422);
    // Another organization's Prometheus is none of this one's.
    expect((await t.as.post(WRITER).send({ data_source_uid: 'prom2' })).status).toBe(422);
    const set = await t.as.post(WRITER).send({ data_source_uid: 'prom' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: expect.any(String), data_source_uid: 'prom', remote_write_path: '/api/v1/write' });
    expect((await t.as.get(WRITER)).body).toEqual(set.body);
    const replaced = await t.as.post(WRITER).send({ data_source_uid: 'prom', remote_write_path: '/prometheus/api/v1/push' });
    expect(replaced.body).toEqual({ id: set.body.id, data_source_uid: 'prom', remote_write_path: '/prometheus/api/v1/push' });
    expect((await t.as.get(WRITER)).body.remote_write_path).toBe('/prometheus/api/v1/push');
    expect([(await t.as.delete(WRITER)).status, (await t.as.get(WRITER)).status]).toEqual([200, 404]);
    expect((await t.as.delete(WRITER)).body).toEqual({ message: 'Remote write target not found' });
  });

  it.each([
    ['no body', undefined, 'data_source_uid: Invalid input: expected string, received undefined'],
    ['an array', [], 'bad request data'],
    ['no data source', {}, 'data_source_uid: Invalid input: expected string, received undefined'],
    ['a number', { data_source_uid: 7 }, 'data_source_uid: Invalid input: expected string, received number'],
    ['a path leaving the base', { data_source_uid: 'prom', remote_write_path: '/../admin' }, 'remote_write_path: must not hold . or .. segments'],
    ['a URL', { data_source_uid: 'prom', remote_write_path: 'http://evil/write' }, 'remote_write_path: must be a path starting with / (no query or fragment)'],
    ['a query', { data_source_uid: 'prom', remote_write_path: '/api/v1/write?x=1' }, 'remote_write_path: must be a path starting with / (no query or fragment)'],
  ])('refuses a writer with %s: 400, nothing stored', async (_what, body, message) => {
    const res = body === undefined ? await t.as.post(WRITER).set('content-type', 'application/json') : await t.as.post(WRITER).send(body);
    expect([res.status, res.body]).toEqual([400, { message }]);
    expect((await t.as.get(WRITER)).status).toBe(404);
  });

  it('creates, lists, pauses, changes and deletes rules with the anchor\'s bodies', async () => {
    const created = await t.as.post(RULES).send(rule({ labels: { room: 'kitchen' } }));
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(id).toMatch(/^[1-9][0-9]*$/);
    expect(created.body).toEqual({
      id, name: 'Kitchen', description: 'the kitchen', active: true, count: false, interval: 60, range: 0, dest_data_source_uid: '', prom_name: 'svc_kitchen',
      target_ref_id: '', queries: [csv('1,2,3')], labels: { room: 'kitchen' },
    });
    const second = (await t.as.post(RULES).send(rule({ name: 'Office', prom_name: 'svc_office', id: '999' }))).body;
    expect(Number(second.id)).toBeGreaterThan(Number(id));
    expect((await t.as.get(RULES)).body).toEqual([created.body, second]);
    // The anchor's update: {id, active} pauses a rule, the rest kept.
    const paused = await t.as.put(RULES).send({ id, active: false });
    expect([paused.status, paused.body]).toEqual([200, { ...created.body, active: false }]);
    const changed = await t.as.put(RULES).send({ id: Number(id), interval: 30, prom_name: 'svc_kitchen_2', labels: {} });
    expect(changed.body).toEqual({ ...created.body, active: false, interval: 30, prom_name: 'svc_kitchen_2', labels: {} });
    expect((await t.as.get(RULES)).body[0]).toEqual(changed.body);
    expect([(await t.as.delete(`${RULES}/${id}`)).body, (await t.as.get(RULES)).body]).toEqual([{ message: 'Recording rule deleted' }, [second]]);
    expect([(await t.as.delete(`${RULES}/${id}`)).status, (await t.as.delete(`${RULES}/${id}`)).body]).toEqual([404, { message: 'Recording rule not found' }]);
    expect([(await t.as.put(RULES).send({ id, active: true })).status, (await t.as.put(RULES).send({ id: 'x', active: true })).status]).toEqual([404, 404]);
    expect([(await t.as.put(RULES).send({ active: true })).status, (await t.as.put(RULES).send({ active: true })).body]).toEqual([400, { message: 'id is required' }]);
    expect([(await t.as.delete(`${RULES}/abc`)).status, (await t.as.delete(`${RULES}/abc`)).body]).toEqual([400, { message: 'recordingRuleID is invalid' }]);
  });

  it.each([
    ['no body', undefined, 'name: Invalid input: expected string, received undefined'],
    ['a string', '"rule"', 'bad request data'],
    ['no name', rule({ name: undefined }), 'name: Invalid input: expected string, received undefined'],
    ['a blank name', rule({ name: '  ' }), 'name: must not be empty'],
    ['no metric name', rule({ prom_name: undefined }), 'prom_name: Invalid input: expected string, received undefined'],
    ['a bad metric name', rule({ prom_name: 'svc kitchen' }), 'prom_name: must be a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)'],
    ['a zero interval', rule({ interval: 0 }), 'interval: Too small: expected number to be >=1'],
    ['a fractional interval', rule({ interval: 1.5 }), 'interval: Invalid input: expected int, received number'],
    ['an interval as text', rule({ interval: '60' }), 'interval: Invalid input: expected number, received string'],
    ['a negative range', rule({ range: -1 }), 'range: Too small: expected number to be >=0'],
    ['no queries', rule({ queries: [] }), 'queries: at least one query'],
    ['a query without data source', rule({ queries: [{ refId: 'A', scenarioId: 'random_walk' }] }), 'queries.0: must name its data source: datasource.uid'],
    ['an expression', rule({ queries: [{ refId: 'A', datasource: { uid: '__expr__' } }] }), 'queries.0: server-side expressions are not supported'],
    ['two queries A', rule({ queries: [csv('1'), csv('2')] }), 'queries: refIds must be unique'],
    ['a target no query has', rule({ target_ref_id: 'B' }), 'target_ref_id: no query has refId "B"'],
    ['a reserved label', rule({ labels: { __name__: 'x' } }), 'labels.__name__: names starting with __ are reserved'],
    ['a bad label name', rule({ labels: { 'a-b': 'x' } }), 'labels.a-b: must be a Prometheus label name'],
    ['a label value number', rule({ labels: { a: 1 } }), 'labels.a: Invalid input: expected string, received number'],
    ['an unknown data source', rule({ queries: [{ refId: 'A', datasource: { uid: 'nope' } }] }), 'queries: data source "nope" not found'],
    ['another organization\'s data source', rule({ queries: [{ refId: 'A', datasource: { uid: 'td2' } }] }), 'queries: data source "td2" not found'],
    ['a destination that is no Prometheus', rule({ dest_data_source_uid: 'td' }), 'dest_data_source_uid: "td" is not a Prometheus data source of this organization'],
  ])('refuses a rule with %s: 400 on create, update and test, nothing stored', async (_what, body, message) => {
    const send = (req: ReturnType<typeof t.as.post>) => (body === undefined ? req.set('content-type', 'application/json') : typeof body === 'string' ? req.set('content-type', 'application/json').send(body) : req.send(body));
    const before = await stored(t);
    const created = await send(t.as.post(RULES));
    expect([created.status, created.body]).toEqual([400, { message }]);
    const tested = await send(t.as.post(`${RULES}/test`));
    expect([tested.status, tested.body]).toEqual([400, { message }]);
    if (body && typeof body === 'object' && !Array.isArray(body) && 'prom_name' in body && body.prom_name !== undefined && body.name !== undefined) {
      const id = (await t.as.post(RULES).send(rule())).body.id;
      const updated = await t.as.put(RULES).send({ ...body, id });
      expect([updated.status, updated.body]).toEqual([400, { message }]);
      expect((await t.as.get(RULES)).body).toEqual([{ ...rule(), id, active: true, count: false, range: 0, dest_data_source_uid: '', target_ref_id: '', labels: {} }]);
      await t.as.delete(`${RULES}/${id}`).expect(200);
    }
    expect(await stored(t)).toEqual(before);
  });

  it('tests a rule through the data source plugin: the last value, the row count, its labels; 422 for what cannot be recorded', async () => {
    const res = await t.as.post(`${RULES}/test`).send(rule({ labels: { room: 'kitchen' } }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Recording rule test succeeded', series: [{ labels: { room: 'kitchen', __name__: 'svc_kitchen' }, value: 3, timestamp: expect.any(Number) }] });
    expect(Math.abs(res.body.series[0].timestamp - Date.now())).toBeLessThan(10_000);
    const counted = await t.as.post(`${RULES}/test`).send(rule({ count: true, queries: [csv('5,6,7,8')] }));
    expect(counted.body.series).toEqual([{ labels: { __name__: 'svc_kitchen' }, value: 4, timestamp: expect.any(Number) }]);
    const target = await t.as.post(`${RULES}/test`).send(rule({ target_ref_id: 'B', queries: [csv('1', 'A'), csv('40,41', 'B')] }));
    expect(target.body.series[0].value).toBe(41);
    const failing = await t.as.post(`${RULES}/test`).send(rule({ queries: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'random_walk_with_error' }] }));
    expect(failing.status).toBe(422);
    expect(failing.body.message).toMatch(/^query failed: /);
    const nothing = await t.as.post(`${RULES}/test`).send(rule({ queries: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'no_data_points' }] }));
    expect([nothing.status, nothing.body]).toEqual([422, { message: 'the query returned no numeric value to record' }]);
    // One series per numeric field, named by its labels (the rule's win; a name Prometheus refuses made one it takes).
    const content = (csvContent: string) => rule({ labels: { room: 'kitchen' }, queries: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_content', csvContent }] });
    const labelled = await t.as.post(`${RULES}/test`).send(content('name,a{host="x" room="hall"},b{host.name="y"}\nfirst,1,2\nlast,3,4'));
    expect(labelled.body.series.map((x: { labels: object; value: number }) => [x.labels, x.value])).toEqual([
      [{ host: 'x', room: 'kitchen', __name__: 'svc_kitchen' }, 3],
      [{ host_name: 'y', room: 'kitchen', __name__: 'svc_kitchen' }, 4],
    ]);
    const same = await t.as.post(`${RULES}/test`).send(content('a,b\n1,2'));
    expect(same.status).toBe(422);
    expect(same.body.message).toMatch(/^the query returned more than one value for the series /);
    // Testing stores nothing and writes nothing.
    expect(await stored(t)).toEqual([]);
    expect(up.requests).toEqual([]);
  });

  describe('who may call each route (an enterprise-only authorization matrix: the shared one serves the open-source edition)', () => {
    type Who = 'anonymous' | 'viewer' | 'editor' | 'orgAdmin' | 'serverAdmin' | 'otherOrg' | 'serviceAccount';
    let token = '';
    const request = (who: Who, method: 'get' | 'post' | 'put' | 'delete', path: string) => {
      const agent = supertest(t.app);
      let req = agent[method](path).set('X-Svc-Org-Id', '1');
      if (who === 'serverAdmin') req = req.auth('admin', 'admin');
      else if (who === 'serviceAccount') req = req.set('Authorization', `Bearer ${token}`);
      else if (who !== 'anonymous') req = req.auth({ viewer: 'rr-viewer', editor: 'rr-editor', orgAdmin: 'rr-admin', otherOrg: 'rr-other' }[who], PASSWORD);
      return req;
    };
    beforeAll(async () => {
      const sa = await t.as.post('/api/serviceaccounts').send({ name: 'rr-robot', role: 'Admin' }).expect(201);
      token = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'rr-robot' })).body.key;
    });
    /** Each row prepares its target as the server admin, so that the success status is exact. */
    const rows: Array<[string, () => Promise<{ method: 'get' | 'post' | 'put' | 'delete'; path: string; body?: object }>]> = [
      ['GET /api/recording-rules', async () => ({ method: 'get', path: RULES })],
      ['POST /api/recording-rules', async () => ({ method: 'post', path: RULES, body: rule() })],
      ['PUT /api/recording-rules', async () => ({ method: 'put', path: RULES, body: { id: (await t.as.post(RULES).send(rule())).body.id, active: false } })],
      ['DELETE /api/recording-rules/:recordingRuleID', async () => ({ method: 'delete', path: `${RULES}/${(await t.as.post(RULES).send(rule())).body.id}` })],
      ['POST /api/recording-rules/test', async () => ({ method: 'post', path: `${RULES}/test`, body: rule() })],
      ['GET /api/recording-rules/writer', async () => (await t.as.post(WRITER).send({ data_source_uid: 'prom' }), { method: 'get', path: WRITER })],
      ['POST /api/recording-rules/writer', async () => ({ method: 'post', path: WRITER, body: { data_source_uid: 'prom' } })],
      ['DELETE /api/recording-rules/writer', async () => (await t.as.post(WRITER).send({ data_source_uid: 'prom' }), { method: 'delete', path: WRITER })],
    ];
    const expected: Record<Who, number> = { anonymous: 401, viewer: 403, editor: 403, orgAdmin: 200, serverAdmin: 200, otherOrg: 403, serviceAccount: 200 };
    it('covers every route of the area', () => {
      expect(rows.map(([r]) => r).sort()).toEqual(recordingRulesArea.routes.map(routeName).sort());
    });
    describe.each(rows)('%s', (_route, prepare) => {
      it.each(Object.entries(expected) as Array<[Who, number]>)('%s gets %i', async (who, status) => {
        const call = await prepare();
        const before = JSON.stringify([await stored(t), (await t.as.get(WRITER)).body]);
        const req = request(who, call.method, call.path);
        const res = await (call.body ? req.send(call.body) : req);
        expect({ who, status: res.status }).toEqual({ who, status });
        if (status !== 200) {
          expect(typeof res.body.message).toBe('string');
          expect(JSON.stringify([await stored(t), (await t.as.get(WRITER)).body])).toBe(before);
        }
      });
    });
  });

  it('keeps each organization to its own rules and writer', async () => {
    const mine = (await t.as.post(RULES).send(rule())).body;
    await t.as.post(WRITER).send({ data_source_uid: 'prom' }).expect(200);
    const other = as(t, 'rr-other');
    expect((await other.get(RULES)).body).toEqual([]);
    expect((await other.get(WRITER)).status).toBe(404);
    expect((await other.delete(`${RULES}/${mine.id}`)).status).toBe(404);
    expect((await other.put(RULES).send({ id: mine.id, active: false })).status).toBe(404);
    expect((await other.delete(WRITER)).status).toBe(404);
    const theirs = await other.post(RULES).send(rule({ name: 'Theirs', queries: [{ ...csv('9'), datasource: { uid: 'td2' } }] }));
    expect(theirs.status).toBe(200);
    expect((await other.post(WRITER).send({ data_source_uid: 'prom2' })).status).toBe(200);
    expect((await other.get(RULES)).body).toEqual([theirs.body]);
    // Org 1 still sees its own alone, unchanged.
    expect((await t.as.get(RULES)).body).toEqual([mine]);
    expect((await t.as.get(WRITER)).body.data_source_uid).toBe('prom');
    await other.delete(`${RULES}/${theirs.body.id}`).expect(200);
    await other.delete(WRITER).expect(200);
  });

  it('deletes an organization\'s rules and writer with it', async () => {
    const doomed = (await t.users.createOrg(SYSTEM, 'Doomed')).id;
    await createUser(t, 'rr-doomed', { [doomed]: 'Admin' });
    const c = as(t, 'rr-doomed');
    await c.post('/api/datasources').send({ name: 'TD', uid: 'td', type: 'testdata', access: 'proxy' }).expect(200);
    await c.post('/api/datasources').send({ name: 'P', uid: 'prom', type: 'prometheus', access: 'proxy', url: up.url }).expect(200);
    await c.post(RULES).send(rule()).expect(200);
    await c.post(WRITER).send({ data_source_uid: 'prom' }).expect(200);
    const rr = t.recordingRules!.deps.registry;
    const ns = rr.namespaces.of(doomed);
    expect((await rr.list(t.recordingRules!.systemContext(ns), recordingRuleKind, {})).items).toHaveLength(1);
    await t.as.delete(`/api/orgs/${doomed}`).expect(200);
    expect((await rr.list(t.recordingRules!.systemContext(ns), recordingRuleKind, {})).items).toEqual([]);
    expect(await rr.exists(recordingRuleWriterKind, ns, 'remote-write-target')).toBe(false);
  });

  it('evaluates an active rule and writes it with the Prometheus remote write protocol, with the data source\'s credentials', async () => {
    up.reply = () => ({ status: 204 });
    await t.as.post(WRITER).send({ data_source_uid: 'prom', remote_write_path: '/api/v1/write' }).expect(200);
    const { id } = (await t.as.post(RULES).send(rule({ interval: 3600, labels: { room: 'kitchen', zone: 'b' } }))).body;
    await t.as.post(RULES).send(rule({ name: 'Paused', prom_name: 'svc_paused', active: false })).expect(200);
    const rules = t.recordingRules!;
    await rules.tick();
    await rules.idle();
    expect(up.requests).toHaveLength(1);
    const [write] = up.requests;
    expect(write!.method).toBe('POST');
    expect(write!.rawPath).toBe('/base/api/v1/write');
    expect(write!.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
      authorization: `Basic ${Buffer.from('writer:rw-secret').toString('base64')}`,
    });
    const series = decoded(write!.body);
    expect(series).toEqual([{ labels: { __name__: 'svc_kitchen', room: 'kitchen', zone: 'b' }, labelOrder: ['__name__', 'room', 'zone'], samples: [{ value: 3, timestamp: expect.any(Number) }] }]);
    expect(Math.abs(series[0]!.samples[0]!.timestamp - Date.now())).toBeLessThan(10_000);
    // Within the same interval nothing is due again; paused, nothing runs; the target's secret never comes back.
    await rules.tick();
    await rules.idle();
    await t.as.put(RULES).send({ id, active: false }).expect(200);
    await rules.tick();
    await rules.idle();
    expect(up.requests).toHaveLength(1);
    expect(JSON.stringify((await t.as.get(WRITER)).body)).not.toContain('rw-secret');
  });

  it('writes to the rule\'s own destination at the target\'s path, and keeps going after a refused write', async () => {
    expect((await t.as.post('/api/datasources').send({ name: 'Receiver B', uid: 'prom-b', type: 'prometheus', access: 'proxy', url: `${up.url}/dest` })).status).toBe(200);
    await t.as.post(WRITER).send({ data_source_uid: 'prom', remote_write_path: '/push' }).expect(200);
    up.reply = () => ({ status: 400, body: 'out of order sample' });
    await t.as.post(RULES).send(rule({ interval: 1, dest_data_source_uid: 'prom-b' })).expect(200);
    const rules = t.recordingRules!;
    await rules.tick();
    await rules.idle();
    up.reply = () => ({ status: 204 });
    await new Promise((r) => setTimeout(r, 1100));
    await rules.tick();
    await rules.idle();
    expect(up.requests.map((r) => r.rawPath)).toEqual(['/dest/push', '/dest/push']);
  });

  it('evaluates a rule whose interval grew at the start of its next, longer interval', async () => {
    up.reply = () => ({ status: 204 });
    await t.as.post(WRITER).send({ data_source_uid: 'prom' }).expect(200);
    const { id } = (await t.as.post(RULES).send(rule({ interval: 1 }))).body;
    let now = Date.UTC(2030, 0, 1, 12, 0, 30, 500);
    const clocked = new RecordingRules(t.recordingRules!.deps, { now: () => now });
    const pass = async () => {
      await clocked.tick();
      await clocked.idle();
      return up.requests.length;
    };
    expect(await pass()).toBe(1);
    await t.as.put(RULES).send({ id, interval: 60 }).expect(200);
    now += 1000;
    // 12:00:31: the minute 12:00 began before the second claimed (12:00:30): not due again.
    expect(await pass()).toBe(1);
    now = Date.UTC(2030, 0, 1, 12, 1, 0, 200);
    expect(await pass()).toBe(2);
    expect(await pass()).toBe(2);
    expect(decoded(up.requests[1]!.body)[0]!.samples[0]!.timestamp).toBe(now);
  });

  it('has one replica evaluate a rule per interval: the slot is claimed in the database', async () => {
    up.reply = () => ({ status: 204 });
    await t.as.post(WRITER).send({ data_source_uid: 'prom' }).expect(200);
    await t.as.post(RULES).send(rule({ interval: 1 })).expect(200);
    // Three replicas over one database, each passing every 50 ms for ~2.6 s.
    const replicas = [t.recordingRules!, new RecordingRules(t.recordingRules!.deps), new RecordingRules(t.recordingRules!.deps)];
    const until = Date.now() + 2600;
    await Promise.all(replicas.map(async (r) => {
      while (Date.now() < until) {
        await r.tick();
        await new Promise((res) => setTimeout(res, 50));
      }
      await r.idle();
    }));
    const slots = up.requests.map((req) => Math.floor(decoded(req.body)[0]!.samples[0]!.timestamp / 1000));
    expect(slots.length).toBeGreaterThanOrEqual(2);
    expect(slots.length).toBeLessThanOrEqual(4);
    expect(new Set(slots).size).toBe(slots.length);
  });
});
