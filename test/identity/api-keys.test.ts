/**
 * The deprecated API keys (/api/auth/keys) answer as the anchor's since its keys became service account tokens: an
 * empty list, 410 on create naming the routes that replace it, 404 on delete (400 for an id that is no integer).
 */
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'keys-admin', { 1: 'Admin' });
  await createUser(t, 'keys-editor', { 1: 'Editor' });
}, 60_000);
afterAll(() => t.close());

describe('/api/auth/keys', () => {
  it('lists no keys, with or without the expired ones', async () => {
    expect((await t.as.get('/api/auth/keys').expect(200)).body).toEqual([]);
    expect((await as(t, 'keys-admin').get('/api/auth/keys?includeExpired=true').expect(200)).body).toEqual([]);
  });

  it('creates nothing: 410 names the service account routes, and a service account appears nowhere', async () => {
    const res = await as(t, 'keys-admin').post('/api/auth/keys').send({ name: 'ci', role: 'Admin', secondsToLive: 60 }).expect(410);
    expect(res.body).toEqual({ message: 'this endpoint has been removed, please use POST /api/serviceaccounts and POST /api/serviceaccounts/{id}/tokens instead' });
    expect((await t.as.get('/api/serviceaccounts/search').expect(200)).body.totalCount).toBe(0);
    // A body that is no JSON object is the same 410: nothing is read.
    await t.as.post('/api/auth/keys').set('content-type', 'application/json').send('[1,2').expect(400);
    await t.as.post('/api/auth/keys').send('name=x').expect(410);
  });

  it('deletes nothing: a numeric id is 404, anything else 400', async () => {
    expect((await t.as.delete('/api/auth/keys/1').expect(404)).body).toEqual({ message: 'Failed to delete API key' });
    await t.as.delete('/api/auth/keys/-3').expect(404);
    expect((await t.as.delete('/api/auth/keys/abc').expect(400)).body).toEqual({ message: 'id is invalid' });
    await t.as.delete(`/api/auth/keys/${'9'.repeat(40)}`).expect(400);
  });

  it('is for org Admins (apikeys:*): an Editor gets the RBAC 403 naming the action', async () => {
    const res = await as(t, 'keys-editor').get('/api/auth/keys').expect(403);
    expect(res.body.message).toContain('apikeys:read');
    await as(t, 'keys-editor').post('/api/auth/keys').send({ name: 'x', role: 'Viewer' }).expect(403);
    await t.anonymous.get('/api/auth/keys').expect(401);
  });
});
