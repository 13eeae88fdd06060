import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';
import { as, createUser } from '../support/users';
import { dashboardBody, folderBody, names, watchAs } from './access-support';

/**
 * Folder and dashboard permissions (`/api/folders/:uid/permissions`, `/api/dashboards/uid/:uid/permissions`) and
 * what they change everywhere: /apis gets, lists and watches, writes, inheritance down nested folders, teams, and
 * organizations kept apart.
 */
let t: TestApp;
let ulla: { id: number; uid: string };
let tim: { id: number; uid: string };
let org2: number;
const ORG2_FOLDERS = () => `/apis/folder.svc.app/v1beta1/namespaces/org-${org2}/folders`;
const perms = (uid: string) => `/api/folders/${uid}/permissions`;
const dashPerms = (uid: string) => `/api/dashboards/uid/${uid}/permissions`;
const DENIED = (action: string) => ({
  title: 'Access denied',
  message: `You'll need additional permissions to perform this action. Permissions needed: ${action}`,
  accessErrorId: expect.stringMatching(/^ACE\d{10}$/),
});

beforeAll(async () => {
  t = await startTestApp(['--registry.watch_poll_interval_ms=50']);
  org2 = (await t.as.post('/api/orgs').send({ name: 'Second' })).body.orgId;
  await createUser(t, 'viewer', { 1: 'Viewer', [org2]: 'Viewer' });
  await createUser(t, 'editor', { 1: 'Editor' });
  ulla = await createUser(t, 'ulla', { 1: 'None' });
  tim = await createUser(t, 'tim', { 1: 'None' });
  // general ─ open ─ d-open ; general ─ restricted ─ d-secret ; general ─ parent ─ child ─ d-deep ; parent ─ d-side
  for (const f of [folderBody('open'), folderBody('restricted'), folderBody('parent'), folderBody('child', 'parent'), folderBody('sibling')]) {
    await t.as.post(FOLDERS).send(f).expect(201);
  }
  for (const d of [dashboardBody('d-open', 'open'), dashboardBody('d-secret', 'restricted'), dashboardBody('d-deep', 'child'), dashboardBody('d-sibling', 'sibling')]) {
    await t.as.post(DASHBOARDS).send(d).expect(201);
  }
});
afterAll(async () => {
  await t.close();
});

describe('the permission list', () => {
  it('a new root folder starts with the anchor defaults: creator Admin, Editor Edit, Viewer View', async () => {
    const res = await t.as.get(perms('open'));
    expect(res.status).toBe(200);
    const rows = res.body.map((i: Record<string, unknown>) => [i.userLogin || i.role, i.permission, i.permissionName, i.inherited]);
    expect(rows).toEqual([
      ['admin', 4, 'Admin', false],
      ['Editor', 2, 'Edit', false],
      ['Viewer', 1, 'View', false],
    ]);
    expect(res.body[0]).toMatchObject({ userId: 1, userLogin: 'admin', uid: 'open', title: 'open', isFolder: true, url: '/dashboards/f/open/open', teamId: 0 });
  });

  it('a nested object has only its creator, and lists what it inherits from the folders above', async () => {
    const res = await t.as.get(dashPerms('d-deep')).expect(200);
    expect(res.body.map((i: Record<string, unknown>) => [i.uid, i.userLogin || i.role, i.permissionName, i.inherited])).toEqual([
      ['d-deep', 'admin', 'Admin', false],
      ['child', 'admin', 'Admin', true],
      ['parent', 'admin', 'Admin', true],
      ['parent', 'Editor', 'Edit', true],
      ['parent', 'Viewer', 'View', true],
    ]);
    expect(res.body[0]).toMatchObject({ isFolder: false, url: '/d/d-deep/d-deep' });
  });

  it('POST replaces every item; the answer is the anchor message', async () => {
    const res = await t.as.post(perms('restricted')).send({ items: [{ role: 'Editor', permission: 2 }, { userId: ulla.id, permission: 1 }] });
    expect([res.status, res.body]).toEqual([200, { message: 'Folder permissions updated' }]);
    const list = (await t.as.get(perms('restricted'))).body;
    expect(list.map((i: Record<string, unknown>) => [i.userLogin || i.role, i.permission])).toEqual([
      ['Editor', 2],
      ['ulla', 1],
    ]);
    expect(list[1]).toMatchObject({ userId: ulla.id, userUid: ulla.uid });
  });

  it('refuses bad bodies (400), unknown users, teams and objects (404), changing nothing', async () => {
    const cases: [string, unknown, number, string][] = [
      [perms('open'), { items: [{ userId: 1, teamId: 1, permission: 1 }] }, 400, 'permission setting for user and team together is not allowed'],
      [perms('open'), { items: [{ role: 'Viewer', permission: 8 }] }, 400, 'permission must be 1 (View), 2 (Edit) or 4 (Admin)'],
      [perms('open'), { items: 'all' }, 400, 'bad request data'],
      [perms('open'), { items: [{ userId: 999, permission: 1 }] }, 404, 'User not found'],
      [perms('open'), { items: [{ teamId: 999, permission: 1 }] }, 404, 'Team not found'],
      [perms('nope'), { items: [] }, 404, 'Folder not found'],
      [dashPerms('nope'), { items: [] }, 404, 'Dashboard not found'],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await t.as.post(path).send(body as object);
      expect([path, res.status, res.body]).toEqual([path, status, { message }]);
    }
    expect((await t.as.get(perms('open'))).body).toHaveLength(3);
  });

  it('reading and changing them needs <resource>.permissions:read|write: the anchor access-denied body', async () => {
    const read = await as(t, 'viewer').get(perms('open'));
    expect([read.status, read.body]).toEqual([403, DENIED('folders.permissions:read')]);
    const write = await as(t, 'editor').post(dashPerms('d-open')).send({ items: [] });
    expect([write.status, write.body]).toEqual([403, DENIED('dashboards.permissions:write')]);
    // A folder the caller may not even read answers the same way, naming the read it lacks.
    const hidden = await as(t, 'viewer').get(perms('restricted'));
    expect([hidden.status, hidden.body]).toEqual([403, DENIED('folders:read')]);
  });
});

describe('what they change', () => {
  it('a Viewer no longer sees a folder whose items exclude it, nor what is inside', async () => {
    expect(names((await as(t, 'viewer').get(FOLDERS)).body)).toEqual(['child', 'open', 'parent', 'sibling']);
    expect(names((await as(t, 'viewer').get(DASHBOARDS)).body)).toEqual(['d-deep', 'd-open', 'd-sibling']);
    const res = await as(t, 'viewer').get(`${DASHBOARDS}/d-secret`);
    expect([res.status, res.body.reason, res.body.message]).toEqual([
      403,
      'Forbidden',
      'dashboards.dashboard.svc.app "d-secret" is forbidden: User "viewer" cannot access resource "dashboards" in API group "dashboard.svc.app" "d-secret": missing permission dashboards:read',
    ]);
    // ulla (role None) was given View there.
    expect(names((await as(t, 'ulla').get(DASHBOARDS)).body)).toEqual(['d-secret']);
  });

  it('View on a folder reaches dashboards two levels down, and not the folder beside it', async () => {
    await t.as.post(perms('parent')).send({ items: [{ userId: tim.id, permission: 1 }] }).expect(200);
    expect(names((await as(t, 'tim').get(DASHBOARDS)).body)).toEqual(['d-deep']);
    expect(names((await as(t, 'tim').get(FOLDERS)).body)).toEqual(['child', 'parent']);
    await as(t, 'tim').get(`${DASHBOARDS}/d-deep`).expect(200);
    await as(t, 'tim').get(`${DASHBOARDS}/d-sibling`).expect(403);
    // View only: tim cannot change it.
    const del = await as(t, 'tim').delete(`${DASHBOARDS}/d-deep`);
    expect([del.status, del.body.message]).toEqual([403, expect.stringMatching(/missing permission dashboards:delete$/)]);
  });

  it('an Editor cannot delete a dashboard it has only View on, nor sweep it up in a deletecollection', async () => {
    await t.as.post(DASHBOARDS).send({ ...dashboardBody('d-view'), metadata: { name: 'd-view', labels: { sweep: 'yes' } } }).expect(201);
    await t.as.post(DASHBOARDS).send({ ...dashboardBody('d-edit'), metadata: { name: 'd-edit', labels: { sweep: 'yes' } } }).expect(201);
    await t.as.post(dashPerms('d-view')).send({ items: [{ role: 'Editor', permission: 1 }] }).expect(200);
    await as(t, 'editor').get(`${DASHBOARDS}/d-view`).expect(200);
    const del = await as(t, 'editor').delete(`${DASHBOARDS}/d-view`);
    expect([del.status, del.body.message]).toEqual([403, expect.stringMatching(/"d-view" is forbidden: .*missing permission dashboards:delete$/)]);
    const sweep = await as(t, 'editor').delete(`${DASHBOARDS}?labelSelector=sweep%3Dyes`);
    expect([sweep.status, sweep.body.message]).toEqual([403, expect.stringMatching(/"d-view" is forbidden: .*missing permission dashboards:delete$/)]);
    await t.as.get(`${DASHBOARDS}/d-edit`).expect(200); // nothing was deleted
    const legacy = await as(t, 'editor').delete('/api/dashboards/uid/d-view');
    expect(legacy.status).toBe(403);
  });

  it('a team item reaches the team members', async () => {
    const team = (await t.as.post('/api/teams').send({ name: 'Ops' })).body.teamId as number;
    const tess = await createUser(t, 'tess', { 1: 'None' });
    await t.as.post(`/api/teams/${team}/members`).send({ userId: tess.id }).expect(200);
    expect(names((await as(t, 'tess').get(FOLDERS)).body)).toEqual([]);
    await t.as.post(perms('sibling')).send({ items: [{ teamId: team, permission: 1 }] }).expect(200);
    expect(names((await as(t, 'tess').get(DASHBOARDS)).body)).toEqual(['d-sibling']);
    const list = (await t.as.get(perms('sibling'))).body;
    expect(list).toEqual([expect.objectContaining({ teamId: team, team: 'Ops', permission: 1, permissionName: 'View' })]);
  });

  it('organizations are kept apart: the same folder uid has its own permissions in each', async () => {
    await t.as.post(ORG2_FOLDERS()).send(folderBody('restricted')).expect(201);
    expect(names((await as(t, 'viewer').get(ORG2_FOLDERS())).body)).toEqual(['restricted']);
    expect(names((await as(t, 'viewer').get(FOLDERS)).body)).not.toContain('restricted');
    // org 2's list is its own: org 1's restricted items do not show there.
    const list = await t.as.get(perms('restricted')).set('X-Svc-Org-Id', String(org2));
    expect(list.body.map((i: Record<string, unknown>) => i.userLogin || i.role)).toEqual(['admin', 'Editor', 'Viewer']);
    // A member of org 1 only is no member of org 2.
    expect((await as(t, 'ulla').get(ORG2_FOLDERS())).status).toBe(403);
  });

  it("a Viewer's watch never shows a dashboard it may not read, and sees one leave when it moves out of sight", async () => {
    await t.as.post(DASHBOARDS).send(dashboardBody('w-moving', 'open')).expect(201);
    // `w-last`, written last, ends the watch: events come in resourceVersion order, so a leak would show before it.
    const lines = await watchAs(
      t,
      'viewer',
      `${DASHBOARDS}?watch=true&timeoutSeconds=25`,
      async () => {
        await t.as.post(DASHBOARDS).send(dashboardBody('w-hidden', 'restricted')).expect(201);
        await t.as.post(DASHBOARDS).send(dashboardBody('w-seen', 'open')).expect(201);
        await t.as
          .patch(`${DASHBOARDS}/w-moving`)
          .set('Content-Type', 'application/merge-patch+json')
          .send({ metadata: { annotations: { 'svc.app/folder': 'restricted' } } })
          .expect(200);
        await t.as.delete(`${DASHBOARDS}/w-hidden`).expect(200);
        await t.as.post(DASHBOARDS).send(dashboardBody('w-last', 'open')).expect(201);
      },
      (seen) => seen.some((l) => l.object.metadata.name === 'w-last'),
    );
    const events = lines.map((l) => `${l.type} ${l.object.metadata.name}`);
    expect(events.filter((e) => !e.startsWith('ADDED d-'))).toEqual(['ADDED w-moving', 'ADDED w-seen', 'DELETED w-moving', 'ADDED w-last']);
    expect(events.some((e) => e.includes('hidden') || e.includes('secret'))).toBe(false);
  });
});

describe('a grantee that goes', () => {
  it("takes its items with it: a deleted user's, a user's who left the org, a deleted team's", async () => {
    await t.as.post(FOLDERS).send(folderBody('leavers')).expect(201);
    const gone = await createUser(t, 'gone-soon', { 1: 'Viewer' });
    const leaver = await createUser(t, 'leaver', { 1: 'Viewer', [org2]: 'Viewer' });
    const team = (await t.as.post('/api/teams').send({ name: 'short-lived' }).expect(200)).body;
    const items = [{ role: 'Editor', permission: 2 }, { userId: gone.id, permission: 4 }, { userId: leaver.id, permission: 1 }, { teamId: team.teamId, permission: 2 }];
    await t.as.post(perms('leavers')).send({ items }).expect(200);
    await t.as.post(dashPerms('d-open')).send({ items: [{ userId: gone.id, permission: 2 }, { role: 'Viewer', permission: 1 }] }).expect(200);
    const grantees = async (path: string) => ((await t.as.get(path).expect(200)).body as Record<string, unknown>[]).filter((i) => !i.inherited).map((i) => i.userLogin || i.team || i.role);
    expect(await grantees(perms('leavers'))).toEqual(expect.arrayContaining(['gone-soon', 'leaver', 'short-lived', 'Editor']));

    await t.as.delete(`/api/admin/users/${gone.id}`).expect(200);
    await t.as.delete(`/api/org/users/${leaver.id}`).expect(200);
    await t.as.delete(`/api/teams/${team.teamId}`).expect(200);
    expect(await grantees(perms('leavers'))).toEqual(['Editor']);
    expect(await grantees(dashPerms('d-open'))).toEqual(['Viewer']);
    // Nothing names them any more, not even as an unknown user (userId 0).
    const raw = JSON.stringify((await t.as.get(perms('leavers'))).body);
    for (const uid of [gone.uid, leaver.uid, team.uid]) expect(raw).not.toContain(uid);
  });
});
