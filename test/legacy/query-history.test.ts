/**
 * Explore's query history (/api/query-history, the QueryHistory kind): each caller adds, searches, comments, stars
 * and deletes only their own entries, in the org they act in; the anchor's shapes and words.
 */
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'qh-alice', { 1: 'Viewer', 2: 'Editor' });
  await createUser(t, 'qh-bob', { 1: 'Editor' });
}, 60_000);
afterAll(() => t.close());

interface Entry { uid: string; datasourceUid: string; createdBy: number; createdAt: number; comment: string; queries: unknown; starred: boolean }
const alice = () => as(t, 'qh-alice');
const add = async (datasourceUid: string, expr: string, who = alice()) =>
  (await who.post('/api/query-history').send({ datasourceUid, queries: [{ refId: 'A', expr }] }).expect(200)).body.result as Entry;
const search = async (qs = '', who = alice()) => (await who.get(`/api/query-history${qs}`).expect(200)).body.result as { totalCount: number; queryHistory: Entry[]; page: number; perPage: number };

describe('/api/query-history', () => {
  let first: Entry;
  let second: Entry;
  let third: Entry;
  beforeAll(async () => {
    first = await add('prom', 'rate(http_requests_total[5m])');
    second = await add('prom', 'up');
    third = await add('pg', 'SELECT 1');
    await add('prom', 'bob only', as(t, 'qh-bob'));
  });

  it('adds an entry with the anchor DTO: a 14-character uid, the caller as createdBy, seconds since the epoch', async () => {
    const me = (await alice().get('/api/user').expect(200)).body as { id: number };
    expect(first).toEqual({ uid: expect.stringMatching(/^[a-z0-9]{14}$/), datasourceUid: 'prom', createdBy: me.id, createdAt: expect.any(Number), comment: '', queries: [{ refId: 'A', expr: 'rate(http_requests_total[5m])' }], starred: false });
    expect(Math.abs(first.createdAt - Date.now() / 1000)).toBeLessThan(120);
  });

  it('searches only the caller\'s own entries in the org it acts in, newest first, with the anchor page shape', async () => {
    const all = await search();
    expect(all.totalCount).toBe(3);
    expect(all.page).toBe(1);
    expect(all.perPage).toBe(100);
    expect(new Set(all.queryHistory.map((e) => e.uid))).toEqual(new Set([first.uid, second.uid, third.uid]));
    const times = all.queryHistory.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await search('?sort=time-asc')).queryHistory.map((e) => e.createdAt)).toEqual([...times].reverse());
    // Org 2: none of org 1's entries.
    expect((await alice().get('/api/query-history').set('X-Svc-Org-Id', '2').expect(200)).body.result.totalCount).toBe(0);
    // Bob sees his own only.
    expect((await search('', as(t, 'qh-bob'))).queryHistory.map((e) => e.queries)).toEqual([[{ refId: 'A', expr: 'bob only' }]]);
  });

  it('filters by data sources, text in the queries or the comment (any case), and pages', async () => {
    expect((await search('?datasourceUid=pg')).queryHistory.map((e) => e.uid)).toEqual([third.uid]);
    expect((await search('?datasourceUid=pg&datasourceUid=prom')).totalCount).toBe(3);
    expect((await search('?searchString=HTTP_REQUESTS')).queryHistory.map((e) => e.uid)).toEqual([first.uid]);
    await alice().patch(`/api/query-history/${second.uid}`).send({ comment: 'Liveness of targets' }).expect(200);
    expect((await search('?searchString=liveness')).queryHistory.map((e) => e.uid)).toEqual([second.uid]);
    const page2 = await search('?limit=2&page=2');
    expect(page2).toMatchObject({ totalCount: 3, page: 2, perPage: 2 });
    expect(page2.queryHistory).toHaveLength(1);
    // Bounds in epoch ms or date math: everything was added within the last day, nothing before a day ago.
    expect((await search('?from=now-1d&to=now')).totalCount).toBe(3);
    expect((await search(`?from=0&to=${Date.now() - 86_400_000}`)).totalCount).toBe(0);
    expect((await alice().get('/api/query-history?from=yesterday').expect(400)).body.message).toMatch(/^Invalid time range/);
  });

  it('comments, stars and unstars with the anchor answers', async () => {
    const commented = (await alice().patch(`/api/query-history/${first.uid}`).send({ comment: 'the one' }).expect(200)).body.result as Entry;
    expect(commented).toMatchObject({ uid: first.uid, comment: 'the one', starred: false });
    expect((await alice().post(`/api/query-history/star/${first.uid}`).expect(200)).body.result).toMatchObject({ uid: first.uid, starred: true, comment: 'the one' });
    expect((await alice().post(`/api/query-history/star/${first.uid}`).expect(400)).body).toEqual({ message: 'Failed to star query in query history' });
    expect((await search('?onlyStarred=true')).queryHistory.map((e) => [e.uid, e.starred])).toEqual([[first.uid, true]]);
    expect((await alice().delete(`/api/query-history/star/${first.uid}`).expect(200)).body.result.starred).toBe(false);
    expect((await alice().delete(`/api/query-history/star/${first.uid}`).expect(400)).body).toEqual({ message: 'Failed to unstar query in query history' });
    expect((await search('?onlyStarred=true')).totalCount).toBe(0);
  });

  it('answers 404 for another caller\'s entry, a missing one, or a uid the anchor could not have made; nothing changes', async () => {
    const bob = as(t, 'qh-bob');
    const notFound = { message: 'Query in query history not found' };
    expect((await bob.patch(`/api/query-history/${third.uid}`).send({ comment: 'mine now' }).expect(404)).body).toEqual(notFound);
    expect((await bob.post(`/api/query-history/star/${third.uid}`).expect(404)).body).toEqual(notFound);
    expect((await bob.delete(`/api/query-history/${third.uid}`).expect(404)).body).toEqual(notFound);
    expect((await alice().delete('/api/query-history/nosuchentry00').expect(404)).body).toEqual(notFound);
    expect((await alice().delete(`/api/query-history/${encodeURIComponent('a.b c')}`).expect(404)).body).toEqual(notFound);
    // In another org the entry is not the caller's either.
    await alice().delete(`/api/query-history/${third.uid}`).set('X-Svc-Org-Id', '2').expect(404);
    expect((await search('?datasourceUid=pg')).queryHistory[0]).toMatchObject({ uid: third.uid, comment: '' });
  });

  it('deletes the caller\'s entry: {message: "Query deleted", id}', async () => {
    expect((await alice().delete(`/api/query-history/${third.uid}`).expect(200)).body).toEqual({ message: 'Query deleted', id: 1 });
    expect((await search('?datasourceUid=pg')).totalCount).toBe(0);
    await alice().delete(`/api/query-history/${third.uid}`).expect(404);
  });

  it('refuses bad bodies with 400 "bad request data" and stores nothing', async () => {
    const before = (await search()).totalCount;
    for (const body of [{ datasourceUid: 'x' }, { datasourceUid: 'x', queries: 'up' }, { datasourceUid: 7, queries: [] }, { datasourceUid: 'x'.repeat(41), queries: [] }, [1, 2]]) {
      expect((await alice().post('/api/query-history').send(body).expect(400)).body).toEqual({ message: 'bad request data' });
    }
    await alice().post('/api/query-history').set('content-type', 'application/json').send('{"queries": [').expect(400);
    expect((await alice().patch(`/api/query-history/${first.uid}`).send({ comment: 5 }).expect(400)).body).toEqual({ message: 'bad request data' });
    expect((await search()).totalCount).toBe(before);
  });

  it('is refused to anonymous callers', async () => {
    await t.anonymous.get('/api/query-history').expect(401);
    await t.anonymous.post('/api/query-history').send({ datasourceUid: 'x', queries: [] }).expect(401);
  });
});
