import { bootstrapIdentity } from '../../pkg/auth/identity-bootstrap';
import { IdentityDirectory } from '../../pkg/auth/identity-directory';
import { createTestStorage } from '../support/backend';
import { startTestApp } from '../support/app';

/** Replicas start together and admins create users at once: ids stay unique, the bootstrap stays idempotent. */
it('two replicas bootstrapping one fresh database make one org 1 and one admin', async () => {
  const { storage, close } = await createTestStorage();
  try {
    const admin = { user: 'admin', password: 'admin', email: 'admin@localhost' };
    const a = new IdentityDirectory(storage);
    const b = new IdentityDirectory(storage);
    await Promise.all([bootstrapIdentity(a, admin), bootstrapIdentity(b, admin), bootstrapIdentity(a, admin)]);
    await bootstrapIdentity(b, admin); // and again later, as a restart does
    expect(await a.listOrgs()).toEqual([{ id: 1, name: 'Main Org.' }]);
    const users = await a.listUsers();
    expect(users.map((u) => [u.id, u.login, u.isSvcAdmin])).toEqual([[1, 'admin', true]]);
    expect(await a.membersOf(1)).toEqual([{ userId: 1, role: 'Admin' }]);
  } finally {
    await close();
  }
});

it('concurrent creates get distinct numeric ids', async () => {
  const t = await startTestApp();
  try {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.as.post('/api/admin/users').send({ login: `racer${i}`, password: 'password1' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const ids = results.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(6);
    // One login asked for five times at once: never two users with it.
    const same = await Promise.all(Array.from({ length: 5 }, () => t.as.post('/api/admin/users').send({ login: 'twin', password: 'password1' })));
    expect(same.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(same.every((r) => r.status === 200 || (r.status === 412 && r.body.message === 'User with same email or login already exists'))).toBe(true);
    expect((await t.users!.listUsers()).filter((u) => u.login === 'twin').length).toBe(same.filter((r) => r.status === 200).length);
    const orgs = await Promise.all(['A', 'B', 'C'].map((name) => t.as.post('/api/orgs').send({ name })));
    expect(new Set(orgs.map((r) => r.body.orgId)).size).toBe(3);
  } finally {
    await t.close();
  }
});
