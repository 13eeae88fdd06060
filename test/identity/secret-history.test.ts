import { userKind } from '../../apis';
import { IDENTITY_NAMESPACE } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';

/**
 * A kind's secret fields never reach history (KindRegistration.secretFields): a user's password hash is in its
 * current row only, so a password change leaves no old hash in the history table, nor in watch events.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const USERS = { group: userKind.group, resource: userKind.plural };
const userKey = (id: number) => ({ ...USERS, namespace: IDENTITY_NAMESPACE, name: String(id) });

it('creating a user, changing its password and deleting it write no hash to history', async () => {
  const before = (await t.storage.versions(USERS)).current;
  const created = await t.as.post('/api/admin/users').send({ login: 'hashless', password: 'first-password' }).expect(200);
  const id = created.body.id as number;
  await t.as.put(`/api/admin/users/${id}/password`).send({ password: 'second-password' }).expect(200);
  await t.as.put(`/api/admin/users/${id}/permissions`).send({ isSvcAdmin: false }).expect(200);
  // managedFields name the field (f:passwordHash), as they name every field; its value is never in history.
  // The current row keeps the hash: the new password signs in, the old one does not.
  const current = await t.storage.get(userKey(id));
  expect((current!.value as { spec: { passwordHash?: string } }).spec.passwordHash).toMatch(/^scrypt\$/);
  await t.anonymous.get('/api/user').auth('hashless', 'second-password').expect(200);
  await t.anonymous.get('/api/user').auth('hashless', 'first-password').expect(401);

  const history = await t.storage.objectHistory(userKey(id), { limit: 100 });
  expect(history.length).toBeGreaterThanOrEqual(2);
  expect(history.every((e) => (e.value as { spec: { login: string } }).spec.login === 'hashless')).toBe(true);
  expect(history.filter((e) => 'passwordHash' in (e.value as { spec: object }).spec)).toEqual([]);
  expect(JSON.stringify(history)).not.toMatch(/scrypt/);

  await t.as.delete(`/api/admin/users/${id}`).expect(200);
  const events = (await t.storage.eventsSince(USERS, before, 1000)).filter((e) => e.key.name === String(id));
  expect(events.map((e) => e.action)).toContain('DELETED');
  expect(JSON.stringify(events)).not.toMatch(/scrypt/);
});

it('the administrator made at start-up has no hash in history either', async () => {
  const admin = (await t.users!.userByLoginOrEmail('admin'))!;
  const history = await t.storage.objectHistory(userKey(admin.id), { limit: 100 });
  expect(history.length).toBeGreaterThan(0);
  expect(JSON.stringify(history)).not.toMatch(/scrypt/);
});
