/** POST /api/admin/users/:id/disable and /enable through HTTP: a disabled user signs in by no means until enabled. */
import { startTestApp, type TestApp } from '../support/app';
import { createUser, PASSWORD } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const cookieOf = (res: { headers: Record<string, unknown> }) => (res.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ');

it('disables a user: basic auth, the login form and its open sessions are refused; enabling lets it sign in again', async () => {
  const user = await createUser(t, 'dis-user', { 1: 'Editor' });
  const login = await t.anonymous.post('/login').send({ user: 'dis-user', password: PASSWORD });
  expect(login.status).toBe(200);
  const cookie = cookieOf(login);
  expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).status).toBe(200);
  expect((await t.anonymous.get('/api/user').auth('dis-user', PASSWORD)).status).toBe(200);

  const res = await t.as.post(`/api/admin/users/${user.id}/disable`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: 'User disabled' });
  expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).status).toBe(401);
  expect((await t.anonymous.get('/api/user').auth('dis-user', PASSWORD)).status).toBe(401);
  expect((await t.anonymous.post('/login').send({ user: 'dis-user', password: PASSWORD })).status).toBe(401);
  expect((await t.as.get(`/api/users/${user.id}`)).body.isDisabled).toBe(true);
  expect((await t.as.get(`/api/admin/users/${user.id}/auth-tokens`)).body).toEqual([]);

  const enabled = await t.as.post(`/api/admin/users/${user.id}/enable`);
  expect(enabled.status).toBe(200);
  expect(enabled.body).toEqual({ message: 'User enabled' });
  expect((await t.anonymous.get('/api/user').auth('dis-user', PASSWORD)).status).toBe(200);
  // The sessions ended by the disable stay ended.
  expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).status).toBe(401);
  expect((await t.as.get(`/api/users/${user.id}`)).body.isDisabled).toBe(false);
});

it.each([
  ['a non-numeric id', 'abc', 400, 'id is invalid'],
  ['id 0', '0', 400, 'id is invalid'],
  ['a negative id', '-3', 400, 'id is invalid'],
  ['an id too large', '99999999999999999999', 400, 'id is invalid'],
  ['no such user', '987654', 404, 'user not found'],
])('answers %s (id %s) with %i, changing nothing', async (_label, id, status, message) => {
  const before = (await t.as.get('/api/users/search?perpage=1000')).body;
  for (const action of ['disable', 'enable']) {
    const res = await t.as.post(`/api/admin/users/${id}/${action}`);
    expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
  }
  expect((await t.as.get('/api/users/search?perpage=1000')).body).toEqual(before);
});

it('refuses everyone but a server admin, changing nothing', async () => {
  const target = await createUser(t, 'dis-target', { 1: 'Viewer' });
  await createUser(t, 'dis-orgadmin', { 1: 'Admin' });
  expect((await t.anonymous.post(`/api/admin/users/${target.id}/disable`).auth('dis-orgadmin', PASSWORD)).status).toBe(403);
  expect((await t.anonymous.post(`/api/admin/users/${target.id}/disable`)).status).toBe(401);
  expect((await t.anonymous.get('/api/user').auth('dis-target', PASSWORD)).status).toBe(200);
});
