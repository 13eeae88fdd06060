import { openWatch, type OpenWatch } from '../access/access-support';
import { as, createUser, PASSWORD } from '../support/users';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';

/**
 * An open watch ends soon after its caller's credential loses its access (kube-apiserver leaves it streaming): a
 * service-account token revoked, the service account disabled, a role dropped to None, a user removed from the org,
 * a session logged out, a user deleted or its password changed. It ends with an ERROR event carrying the Status a
 * new request would get (401, 403), or 410 Expired when the caller still signs in with other rights (clients list
 * again); new requests are refused. Watches of other callers stay open.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(['--registry.watch_poll_interval_ms=50']);
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'seen' }, spec: { title: 'seen', schemaVersion: 41 } }).expect(201);
});
afterAll(async () => {
  await t.close();
});

const WATCH = `${DASHBOARDS}?watch=true&resourceVersion=0`;

/** Waits (up to 10 s) for the server to end the watch; answers its last line. */
async function endOf(w: OpenWatch): Promise<{ type: string; object: Record<string, unknown> } | undefined> {
  for (let waited = 0; !w.isEnded(); waited += 50) {
    if (waited > 10_000) throw new Error('the watch is still open');
    await new Promise((r) => setTimeout(r, 50));
  }
  return w.lines[w.lines.length - 1] as unknown as { type: string; object: Record<string, unknown> };
}

/** A watch that has started streaming (its initial ADDED event). */
async function watching(who: Parameters<typeof openWatch>[2]): Promise<OpenWatch> {
  const w = await openWatch(t, WATCH, who);
  expect(w.status).toBe(200);
  for (let waited = 0; !w.lines.some((l) => l.object.metadata.name === 'seen'); waited += 50) {
    if (waited > 10_000) throw new Error('the watch never started');
    await new Promise((r) => setTimeout(r, 50));
  }
  return w;
}

async function serviceAccount(name: string): Promise<{ id: number; key: string; tokenId: number }> {
  const sa = await t.as.post('/api/serviceaccounts').send({ name, role: 'Editor' }).expect(201);
  const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name }).expect(200);
  return { id: sa.body.id, key: token.body.key, tokenId: token.body.id };
}
const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });

describe('a service account', () => {
  it('its token revoked: the watch ends with 401, and the token is refused', async () => {
    const sa = await serviceAccount('revoked');
    const other = await serviceAccount('bystander');
    const w = await watching(bearer(sa.key));
    const bystander = await watching(bearer(other.key));
    try {
      await t.as.delete(`/api/serviceaccounts/${sa.id}/tokens/${sa.tokenId}`).expect(200);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 401, reason: 'Unauthorized' } });
      expect((await t.anonymous.get(DASHBOARDS).set('Authorization', `Bearer ${sa.key}`)).status).toBe(401);
      // Another caller's watch is left alone.
      expect(bystander.isEnded()).toBe(false);
    } finally {
      w.close();
      bystander.close();
    }
  });

  it('disabled: the watch ends with 401', async () => {
    const sa = await serviceAccount('disabled');
    const w = await watching(bearer(sa.key));
    try {
      await t.as.patch(`/api/serviceaccounts/${sa.id}`).send({ isDisabled: true }).expect(200);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { code: 401 } });
      expect((await t.anonymous.get(DASHBOARDS).set('Authorization', `Bearer ${sa.key}`)).status).toBe(401);
    } finally {
      w.close();
    }
  });

  it('its role dropped to None: the watch ends with 410 Expired (a client lists again and sees nothing)', async () => {
    const sa = await serviceAccount('demoted');
    const w = await watching(bearer(sa.key));
    try {
      await t.as.patch(`/api/serviceaccounts/${sa.id}`).send({ role: 'None' }).expect(200);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
      expect((await t.anonymous.get(`${DASHBOARDS}/seen`).set('Authorization', `Bearer ${sa.key}`)).status).toBe(403);
    } finally {
      w.close();
    }
  });
});

describe('a user', () => {
  it('its org role set to None: 410; removed from the org: 403', async () => {
    // A member of a second org too: removed from its last org, a user is deleted (401, below).
    const org2 = (await t.as.post('/api/orgs').send({ name: 'Second' }).expect(200)).body.orgId as number;
    const u = await createUser(t, 'demoted', { 1: 'Editor', [org2]: 'Viewer' });
    let w = await watching({ login: 'demoted' });
    try {
      await t.as.patch(`/api/org/users/${u.id}`).send({ role: 'None' }).expect(200);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { code: 410 } });
      expect((await as(t, 'demoted').get(`${DASHBOARDS}/seen`)).status).toBe(403);
      await t.as.patch(`/api/org/users/${u.id}`).send({ role: 'Viewer' }).expect(200);
      w = await watching({ login: 'demoted' });
      await t.as.delete(`/api/org/users/${u.id}`).expect(200);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { code: 403 } });
      expect((await as(t, 'demoted').get(DASHBOARDS)).status).toBe(403);
    } finally {
      w.close();
    }
  });

  it('deleted: 401; its password changed: 401', async () => {
    const gone = await createUser(t, 'gone', { 1: 'Viewer' });
    const moved = await createUser(t, 'moved', { 1: 'Viewer' });
    const w1 = await watching({ login: 'gone' });
    const w2 = await watching({ login: 'moved' });
    try {
      await t.as.delete(`/api/admin/users/${gone.id}`).expect(200);
      expect(await endOf(w1)).toMatchObject({ type: 'ERROR', object: { code: 401 } });
      expect((await as(t, 'gone').get(DASHBOARDS)).status).toBe(401);
      expect(w2.isEnded()).toBe(false);
      await t.as.put(`/api/admin/users/${moved.id}/password`).send({ password: 'another-password' }).expect(200);
      expect(await endOf(w2)).toMatchObject({ type: 'ERROR', object: { code: 401 } });
      expect((await as(t, 'moved').get(DASHBOARDS)).status).toBe(401);
      expect((await t.anonymous.get(DASHBOARDS).auth('moved', 'another-password')).status).toBe(200);
    } finally {
      w1.close();
      w2.close();
    }
  });

  it('its session logged out: the watch on the session cookie ends with 401', async () => {
    await createUser(t, 'browser', { 1: 'Viewer' });
    const login = await t.anonymous.post('/login').send({ user: 'browser', password: PASSWORD }).expect(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const w = await watching({ headers: { Cookie: cookie } });
    try {
      await t.anonymous.get('/logout').set('Cookie', cookie).expect(302);
      expect(await endOf(w)).toMatchObject({ type: 'ERROR', object: { code: 401 } });
      expect((await t.anonymous.get(DASHBOARDS).set('Cookie', cookie)).status).toBe(401);
    } finally {
      w.close();
    }
  });
});
