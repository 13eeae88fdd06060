import type { Express } from 'express';
import supertest from 'supertest';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import type { NewUser, StoredUser } from '../../pkg/auth/identity/identity-directory';
import type { OrgRole } from '../../pkg/auth/authorization/permissions';
import type { TestApp } from './app';

/** The password of every user a test makes (the admin's is ADMIN.password). */
export const PASSWORD = 'password1';

/** supertest requests with one caller's credentials. */
export interface Client {
  get(path: string): supertest.Test;
  post(path: string): supertest.Test;
  put(path: string): supertest.Test;
  patch(path: string): supertest.Test;
  delete(path: string): supertest.Test;
}

/**
 * supertest against `t.app` authenticated (basic) as `login`, a user made by {@link createUser} unless told its
 * password.
 *
 * @example await as(t, 'viewer').get(FOLDERS).expect(200);
 */
export function as(t: { app: Express }, login: string, password = PASSWORD): Client {
  const agent = supertest(t.app);
  return {
    get: (p) => agent.get(p).auth(login, password),
    post: (p) => agent.post(p).auth(login, password),
    put: (p) => agent.put(p).auth(login, password),
    patch: (p) => agent.patch(p).auth(login, password),
    delete: (p) => agent.delete(p).auth(login, password),
  };
}

/**
 * Stores a user (`<login>@example.com`, named `login`, password {@link PASSWORD}) and makes it a member of each
 * org of `roles` with its role; its current org is the first of them (else org 1). `user` overrides any field.
 *
 * @example const { id } = await createUser(t, 'editor', { 1: 'Editor' });
 */
export async function createUser(t: TestApp, login: string, roles: Record<number, OrgRole> = {}, user: Partial<NewUser> = {}): Promise<StoredUser> {
  const orgIds = Object.keys(roles).map(Number);
  const created = await t.users.createUser(SYSTEM, { login, email: `${login}@example.com`, name: login, password: PASSWORD, orgId: orgIds[0] ?? 1, ...user });
  for (const orgId of orgIds) await t.users.setRole(SYSTEM, orgId, created.id, roles[orgId]!);
  return created;
}
