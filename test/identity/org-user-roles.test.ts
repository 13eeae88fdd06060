/**
 * No role above the caller's own (the anchor's addOrgUserHelper and updateOrgUserHelper): a member allowed to add
 * or change members (here an Editor holding org.users:add and org.users:write through a custom role of the
 * enterprise edition) may hand out its own role or less, and None, never more (403 "Cannot assign a role higher
 * than user's role", nothing changed); org Admins and server admins hand out any role.
 */
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

const HIGHER = { status: 403, message: "Cannot assign a role higher than user's role" };
const answer = (res: { status: number; body: { message?: string } }) => ({ status: res.status, message: res.body.message });

describe('assigning organization roles', () => {
  let t: TestApp;
  const roleIn1 = async (login: string) => ((await t.as.get('/api/org/users')).body as { login: string; role: string }[]).find((u) => u.login === login)?.role;

  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
    const editor = await createUser(t, 'ro-editor', { 1: 'Editor' });
    await createUser(t, 'ro-admin', { 1: 'Admin' });
    for (const login of ['ro-a', 'ro-b', 'ro-c', 'ro-d', 'ro-e']) await createUser(t, login, {}, { orgId: 1 });
    const role = await t.as.post('/api/access-control/roles').send({
      name: 'custom:member-manager',
      permissions: [{ action: 'org.users:add', scope: 'users:*' }, { action: 'org.users:write', scope: 'users:*' }, { action: 'org.users:read', scope: 'users:*' }],
    });
    expect(role.status).toBe(201);
    expect((await t.as.post(`/api/access-control/users/${editor.id}/roles`).send({ roleUid: role.body.uid })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('refuses an Editor adding a member as Admin, and adds none', async () => {
    const res = await as(t, 'ro-editor').post('/api/org/users').send({ loginOrEmail: 'ro-a', role: 'Admin' });
    expect(answer(res)).toEqual(HIGHER);
    expect(await roleIn1('ro-a')).toBeUndefined();
    // A bad role is the 400 first, as the anchor checks it first.
    expect((await as(t, 'ro-editor').post('/api/org/users').send({ loginOrEmail: 'ro-a', role: 'Owner' })).status).toBe(400);
  });

  it.each([
    ['ro-b', 'Editor'],
    ['ro-c', 'Viewer'],
    ['ro-d', 'None'],
  ])('lets an Editor add %s as %s', async (login, role) => {
    const res = await as(t, 'ro-editor').post('/api/org/users').send({ loginOrEmail: login, role });
    expect(answer(res)).toEqual({ status: 200, message: 'User added to organization' });
    expect(await roleIn1(login)).toBe(role);
  });

  it("refuses an Editor raising a member to Admin, and changes nothing; lowering is the Editor's to do", async () => {
    const id = (await t.users.userByLoginOrEmail('ro-c'))!.id;
    expect(answer(await as(t, 'ro-editor').patch(`/api/org/users/${id}`).send({ role: 'Admin' }))).toEqual(HIGHER);
    expect(await roleIn1('ro-c')).toBe('Viewer');
    expect((await as(t, 'ro-editor').patch(`/api/org/users/${id}`).send({ role: 'Editor' })).status).toBe(200);
    expect(await roleIn1('ro-c')).toBe('Editor');
  });

  it('lets an org Admin and a server admin hand out Admin', async () => {
    expect((await as(t, 'ro-admin').post('/api/org/users').send({ loginOrEmail: 'ro-a', role: 'Admin' })).status).toBe(200);
    expect(await roleIn1('ro-a')).toBe('Admin');
    expect((await t.as.post('/api/orgs/1/users').send({ loginOrEmail: 'ro-e', role: 'Admin' })).status).toBe(200);
    expect(await roleIn1('ro-e')).toBe('Admin');
  });
});
