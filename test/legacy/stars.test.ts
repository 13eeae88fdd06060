import { dashboardKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { starsOf } from '../../pkg/stars/stars';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

/** The signed-in user's dashboard stars through HTTP, per user and per organization, and `isStarred` for adapters. */
let t: TestApp;
let orgId: number;
beforeAll(async () => {
  t = await startTestApp();
  await dashboard('a', 'Alpha');
  await dashboard('b', 'Bravo');
  await createUser(t, 'viv').then((u) => t.users!.setRole(SYSTEM, 1, u.id, 'Viewer'));
  orgId = (await t.users!.createOrg(SYSTEM, 'Other')).id;
  await t.users!.setRole(SYSTEM, orgId, 1, 'Admin');
  await dashboard('c', 'Charlie', `/apis/dashboard.svc.app/v1beta1/namespaces/org-${orgId}/dashboards`);
});
afterAll(async () => {
  await t.close();
});

async function dashboard(name: string, title: string, path = DASHBOARDS) {
  const res = await t.as.post(path).send({ metadata: { name }, spec: { title, panels: [] } });
  expect(res.status).toBe(201);
  return res.body;
}

const star = (uid: string) => t.as.post(`/api/user/stars/dashboard/uid/${uid}`);
const unstar = (uid: string) => t.as.delete(`/api/user/stars/dashboard/uid/${uid}`);
const starred = async (org?: number) => {
  const req = t.as.get('/api/user/stars');
  const res = await (org ? req.set('X-Svc-Org-Id', String(org)) : req);
  expect(res.status).toBe(200);
  return res.body as string[];
};

afterEach(async () => {
  for (const uid of ['a', 'b']) await unstar(uid);
});

describe('starring', () => {
  it('stars and unstars with the anchor messages; GET /api/user/stars lists the uids', async () => {
    expect(await starred()).toEqual([]);
    const res = await star('a');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Dashboard starred!' });
    await star('b').expect(200);
    expect(await starred()).toEqual(['a', 'b']);
    const un = await unstar('a');
    expect(un.status).toBe(200);
    expect(un.body).toEqual({ message: 'Dashboard unstarred' });
    expect(await starred()).toEqual(['b']);
  });

  it('is idempotent both ways', async () => {
    await star('a').expect(200);
    await star('a').expect(200);
    expect(await starred()).toEqual(['a']);
    await unstar('a').expect(200);
    const again = await unstar('a');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Dashboard unstarred' });
    expect(await starred()).toEqual([]);
  });

  it('answers 404 "Dashboard not found" for an unknown dashboard, and stores nothing', async () => {
    for (const res of [await star('nope'), await unstar('nope'), await star('bad%20uid')]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Dashboard not found' });
    }
    expect(await starred()).toEqual([]);
  });

  it('keeps the deprecated numeric-id routes', async () => {
    const id = (await t.as.get(`${DASHBOARDS}/b`)).body.metadata.labels['svc.app/deprecatedInternalID'];
    const res = await t.as.post(`/api/user/stars/dashboard/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Dashboard starred!' });
    expect(await starred()).toEqual(['b']);
    await t.as.delete(`/api/user/stars/dashboard/${id}`).expect(200);
    expect(await starred()).toEqual([]);
    const bad = await t.as.post('/api/user/stars/dashboard/abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Invalid dashboard ID' });
    const missing = await t.as.post('/api/user/stars/dashboard/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Dashboard not found' });
  });

  it('needs credentials', async () => {
    expect((await t.anonymous.post('/api/user/stars/dashboard/uid/a')).status).toBe(401);
    expect((await t.anonymous.get('/api/user/stars')).status).toBe(401);
  });
});

describe('whose stars', () => {
  it('are per user', async () => {
    await star('a').expect(200);
    const mine = await t.anonymous.get('/api/user/stars').auth('viv', PASSWORD);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([]);
  });

  it('are per organization: a dashboard of another org is not found, and each org lists its own', async () => {
    const res = await star('c');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Dashboard not found' });
    await t.as.post('/api/user/stars/dashboard/uid/c').set('X-Svc-Org-Id', String(orgId)).expect(200);
    await star('a').expect(200);
    expect(await starred()).toEqual(['a']);
    expect(await starred(orgId)).toEqual(['c']);
    await t.as.delete('/api/user/stars/dashboard/uid/c').set('X-Svc-Org-Id', String(orgId)).expect(200);
    expect(await starred(orgId)).toEqual([]);
  });
});

describe('deleted dashboards', () => {
  it('lose their stars: a new dashboard under the same uid is not starred', async () => {
    await dashboard('tmp', 'Temporary');
    await star('tmp').expect(200);
    expect(await starred()).toEqual(['tmp']);
    await t.as.delete(`${DASHBOARDS}/tmp`).expect(200);
    expect(await starred()).toEqual([]);
    const again = await dashboard('tmp', 'Temporary again');
    expect(await starred()).toEqual([]);
    expect((await t.as.get('/api/search?query=temporary')).body).toEqual([expect.objectContaining({ uid: 'tmp', isStarred: false })]);
    const stars = starsOf(t.registry);
    expect(await stars.isStarred({ identity: 'user:admin', orgId: 1 }, anyKind(dashboardKind), again)).toBe(false);
    await star('tmp').expect(200);
    expect(await stars.isStarred({ identity: 'user:admin', orgId: 1 }, anyKind(dashboardKind), again)).toBe(true);
    await t.as.delete(`${DASHBOARDS}/tmp`).expect(200);
  });
});

describe('isStarred for other adapters', () => {
  it('answers for the caller and the dashboard as stored', async () => {
    const dash = (await t.as.get(`${DASHBOARDS}/a`)).body;
    const stars = starsOf(t.registry);
    const admin = { identity: 'user:admin', orgId: 1 };
    expect(await stars.isStarred(admin, anyKind(dashboardKind), dash)).toBe(false);
    await star('a').expect(200);
    expect(await stars.isStarred(admin, anyKind(dashboardKind), dash)).toBe(true);
    expect(await stars.isStarred({ identity: 'user:admin', orgId: orgId }, anyKind(dashboardKind), dash)).toBe(false);
  });

  it('feeds meta.isStarred of GET /api/dashboards/uid/:uid, per user', async () => {
    const meta = async (auth?: [string, string]) => {
      const req = auth ? t.anonymous.get('/api/dashboards/uid/b').auth(...auth) : t.as.get('/api/dashboards/uid/b');
      const res = await req;
      expect(res.status).toBe(200);
      return res.body.meta.isStarred as boolean;
    };
    expect(await meta()).toBe(false);
    await star('b').expect(200);
    expect(await meta()).toBe(true);
    await t.users!.setRole(SYSTEM, 1, (await t.users!.userByLoginOrEmail('viv'))!.id, 'Admin');
    expect(await meta(['viv', PASSWORD])).toBe(false);
    await unstar('b').expect(200);
    expect(await meta()).toBe(false);
  });
});

describe('anonymous visitors', () => {
  it('may not star (401), though they may search', async () => {
    const anon = await startTestApp(['--auth.anonymous.enabled=true']);
    try {
      await anon.as.post(DASHBOARDS).send({ metadata: { name: 'pub' }, spec: { title: 'Public' } }).expect(201);
      for (const res of [await anon.anonymous.post('/api/user/stars/dashboard/uid/pub'), await anon.anonymous.get('/api/user/stars')]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'Unauthorized' });
      }
      const found = await anon.anonymous.get('/api/search?query=public');
      expect(found.status).toBe(200);
      expect(found.body).toEqual([expect.objectContaining({ uid: 'pub', isStarred: false })]);
    } finally {
      await anon.close();
    }
  });
});
