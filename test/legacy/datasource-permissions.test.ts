/**
 * Data source permissions (enterprise edition): the managed items of a data source (Query, Edit, Admin) through the
 * anchor's /api/datasources/:id/permissions routes, enforced on every path (/api and /apis); 404 in the others.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DATASOURCES } from '../support/paths';
import { as, createUser } from '../support/users';

let t: TestApp;
let viewerId: number;
beforeAll(async () => {
  t = await startTestApp(['--server.edition=enterprise']);
  viewerId = (await createUser(t, 'dsp-viewer', { 1: 'Viewer' })).id;
});
afterAll(() => t.close());

const viewer = () => as(t, 'dsp-viewer');
const queryScopes = async () => ((await viewer().get('/api/access-control/user/permissions')).body['datasources:query'] ?? []) as string[];

async function dataSource(uid: string): Promise<number> {
  const res = await t.as.post('/api/datasources').send({ name: uid, uid, type: 'loki', access: 'proxy', url: 'http://loki' });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

it('a new data source gives its creator Admin and Viewers Query: listed, and enforced', async () => {
  const id = await dataSource('perm-new');
  const res = await t.as.get(`/api/datasources/${id}/permissions`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ datasourceId: id, enabled: false });
  expect(res.body.permissions.map((p: Record<string, unknown>) => [p.userLogin || p.builtInRole, p.permission, p.permissionName])).toEqual([
    ['admin', 4, 'Admin'],
    ['Viewer', 1, 'Query'],
  ]);
  expect(await queryScopes()).toContain('datasources:uid:perm-new');
  // Query reads nothing: Viewers still get 403 on the record, under both APIs.
  expect((await viewer().get('/api/datasources/uid/perm-new')).status).toBe(403);
  expect((await viewer().get(`${DATASOURCES}/perm-new`)).status).toBe(403);
});

it('enable-permissions leaves querying to Admins and those given an item; disable gives Viewers Query back', async () => {
  const id = await dataSource('perm-toggle');
  expect((await t.as.post(`/api/datasources/${id}/enable-permissions`)).body).toEqual({ message: 'Datasource permissions enabled' });
  expect((await t.as.get(`/api/datasources/${id}/permissions`)).body.enabled).toBe(true);
  expect(await queryScopes()).not.toContain('datasources:uid:perm-toggle');
  const added = await t.as.post(`/api/datasources/${id}/permissions`).send({ userId: viewerId, permission: 1 });
  expect(added.body).toEqual({ message: 'Datasource permission added', permissionId: expect.any(Number) });
  expect(await queryScopes()).toContain('datasources:uid:perm-toggle');
  const removed = await t.as.delete(`/api/datasources/${id}/permissions/${added.body.permissionId}`);
  expect(removed.body).toEqual({ message: 'Datasource permission removed' });
  expect(await queryScopes()).not.toContain('datasources:uid:perm-toggle');
  expect((await t.as.delete(`/api/datasources/${id}/permissions/${added.body.permissionId}`)).status).toBe(404);
  expect((await t.as.post(`/api/datasources/${id}/disable-permissions`)).body).toEqual({ message: 'Datasource permissions disabled' });
  expect(await queryScopes()).toContain('datasources:uid:perm-toggle');
});

it('Edit lets a Viewer read and change that data source only, through /api and /apis', async () => {
  const id = await dataSource('perm-edit');
  await dataSource('perm-other');
  expect((await t.as.post(`/api/datasources/${id}/permissions`).send({ userId: viewerId, permission: 2 })).status).toBe(200);
  expect((await viewer().get('/api/datasources')).body.map((d: { uid: string }) => d.uid)).toEqual(['perm-edit']);
  const record = (await viewer().get('/api/datasources/uid/perm-edit')).body;
  expect((await viewer().put('/api/datasources/uid/perm-edit').send({ ...record, url: 'http://loki-2' })).status).toBe(200);
  expect((await viewer().get(`${DATASOURCES}/perm-edit`)).body.spec.url).toBe('http://loki-2');
  expect((await viewer().get(`${DATASOURCES}/perm-other`)).status).toBe(403);
  expect((await viewer().get(DATASOURCES)).body.items.map((d: { metadata: { name: string } }) => d.metadata.name)).toEqual(['perm-edit']);
  // Edit is no Admin: the permissions themselves stay out of reach.
  expect((await viewer().get(`/api/datasources/${id}/permissions`)).status).toBe(403);
  expect((await viewer().delete('/api/datasources/uid/perm-other')).status).toBe(403);
});

it('refuses bad commands, unknown data sources and other organizations, changing nothing', async () => {
  const id = await dataSource('perm-bad');
  const before = (await t.as.get(`/api/datasources/${id}/permissions`)).body;
  for (const body of [{ userId: viewerId, permission: 3 }, { permission: 1 }, { userId: viewerId, teamId: 1, permission: 1 }, { builtinRole: 'Boss', permission: 1 }]) {
    expect((await t.as.post(`/api/datasources/${id}/permissions`).send(body)).status).toBe(400);
  }
  expect((await t.as.post(`/api/datasources/${id}/permissions`).send({ userId: 999999, permission: 1 })).status).toBe(404);
  expect((await t.as.get('/api/datasources/999999/permissions')).status).toBe(404);
  expect((await t.as.get('/api/datasources/abc/permissions')).status).toBe(400);
  expect((await t.as.get(`/api/datasources/${id}/permissions`)).body).toEqual(before);
  const org = await t.as.post('/api/orgs').send({ name: 'Perm elsewhere' });
  expect((await t.as.get(`/api/datasources/${id}/permissions`).set('X-Svc-Org-Id', String(org.body.orgId))).status).toBe(404);
  expect((await viewer().post(`/api/datasources/${id}/enable-permissions`)).status).toBe(403);
});

it('a deleted data source takes its permissions with it', async () => {
  const id = await dataSource('perm-gone');
  await t.as.post(`/api/datasources/${id}/permissions`).send({ userId: viewerId, permission: 2 });
  expect((await t.as.delete('/api/datasources/uid/perm-gone')).status).toBe(200);
  await dataSource('perm-gone');
  expect((await viewer().get('/api/datasources/uid/perm-gone')).status).toBe(403);
});

describe('open-source edition', () => {
  it('does not serve data source permissions (404)', async () => {
    const oss = await startTestApp();
    try {
      const res = await oss.as.post('/api/datasources').send({ name: 'x', type: 'loki', access: 'proxy', url: 'http://l' });
      for (const call of [oss.as.get(`/api/datasources/${res.body.id}/permissions`), oss.as.post(`/api/datasources/${res.body.id}/enable-permissions`)]) {
        expect((await call).status).toBe(404);
      }
    } finally {
      await oss.close();
    }
  });
});
