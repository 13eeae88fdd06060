/** Dashboard specifics through /apis: the JSON model kept as sent, spec.uid/version mirrors, the dto subresource. */
import { startTestApp, type TestApp } from '../support/app';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { DASHBOARDS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('unknown dashboard JSON is kept as sent; spec carries uid and version mirrors that are never stored', async () => {
  const spec = { title: 'Kept', panels: [{ id: 3, type: 'stat', unknownPanelField: { deep: [1, 2] } }], weird: { nested: true }, uid: 'ignored', version: 99 };
  const res = await t.as.post(DASHBOARDS).send({ metadata: { name: 'kept' }, spec });
  expect(res.status).toBe(201);
  expect(res.body.spec).toEqual({ title: 'Kept', panels: spec.panels, weird: { nested: true }, uid: 'kept', version: 1 });
  const stored = await t.storage.get({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'default', name: 'kept' });
  expect((stored!.value as { spec: Record<string, unknown> }).spec).toEqual({ title: 'Kept', panels: spec.panels, weird: { nested: true } });

  const list = await t.as.get(DASHBOARDS);
  expect(list.body.items[0].spec).toMatchObject({ uid: 'kept', version: 1 });
  const updated = await t.as.put(`${DASHBOARDS}/kept`).send({ ...res.body, spec: { ...res.body.spec, title: 'Kept 2' } });
  expect(updated.body.spec.version).toBe(2);
  expect(updated.body.metadata.generation).toBe(2);
});

test('GET .../dto returns the dashboard with an access section', async () => {
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'dto-1' }, spec: { title: 'Prod: API latency!' } });
  const res = await t.as.get(`${DASHBOARDS}/dto-1/dto`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    kind: 'Dashboard',
    metadata: { name: 'dto-1' },
    spec: { title: 'Prod: API latency!' },
    access: { slug: 'prod-api-latency', url: '/d/dto-1/prod-api-latency', isPublic: false, canSave: true, canEdit: true, canAdmin: true, canStar: true, canDelete: true },
  });
  expect((await t.as.get(`${DASHBOARDS}/missing/dto`)).status).toBe(404);
  expect((await t.as.get(`${DASHBOARDS}/dto-1/nonsense`)).status).toBe(404);
});

test("the dto's isPublic says whether the dashboard has an enabled public dashboard", async () => {
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'dto-pub' }, spec: { title: 'Shared' } }).expect(201);
  const isPublic = async () => (await t.as.get(`${DASHBOARDS}/dto-pub/dto`).expect(200)).body.access.isPublic;
  expect(await isPublic()).toBe(false);
  const shared = await t.as.post('/api/dashboards/uid/dto-pub/public-dashboards').send({ isEnabled: true }).expect(200);
  expect(await isPublic()).toBe(true);
  await t.as.patch(`/api/dashboards/uid/dto-pub/public-dashboards/${shared.body.uid}`).send({ isEnabled: false }).expect(200);
  expect(await isPublic()).toBe(false);
  // Another dashboard's public dashboard says nothing of this one.
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'dto-other' }, spec: { title: 'Other' } }).expect(201);
  await t.as.post('/api/dashboards/uid/dto-other/public-dashboards').send({ isEnabled: true }).expect(200);
  expect(await isPublic()).toBe(false);
  expect((await t.as.get(`${DASHBOARDS}/dto-other/dto`)).body.access.isPublic).toBe(true);
});

test('the svc.app/message annotation travels with the write that sent it', async () => {
  const created = (await t.as.post(DASHBOARDS).send({ metadata: { name: 'msg-1' }, spec: { title: 'A' } })).body;
  const res = await t.as.put(`${DASHBOARDS}/msg-1`).send({
    ...created,
    metadata: { ...created.metadata, annotations: { ...created.metadata.annotations, 'svc.app/message': 'renamed it' } },
    spec: { title: 'B' },
  });
  expect(res.body.metadata.annotations['svc.app/message']).toBe('renamed it');
  const history = await t.storage.objectHistory({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'default', name: 'msg-1' }, { limit: 10 });
  expect(history.map((h) => (h.value as { metadata: { annotations: Record<string, string> } }).metadata.annotations['svc.app/message'])).toEqual(['renamed it', undefined]);
});

test('a client cannot forge createdBy/updatedBy', async () => {
  const res = await t.as.post(DASHBOARDS).send({ metadata: { name: 'forge', annotations: { 'svc.app/createdBy': 'user:mallory', 'svc.app/updatedBy': 'user:mallory' } }, spec: { title: 'x' } });
  expect(res.body.metadata.annotations['svc.app/createdBy']).toBe('user:admin');
  expect(res.body.metadata.annotations['svc.app/updatedBy']).toBeUndefined();
});

test("the dto's access section is the caller's own rights: a Viewer of a root dashboard may only read and star it", async () => {
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'dto-viewer' }, spec: { title: 'Seen' } });
  const viewer = await createUser(t, 'dto-viewer');
  await t.users!.setRole(SYSTEM, 1, viewer.id, 'Viewer');
  const res = await t.anonymous.get(`${DASHBOARDS}/dto-viewer/dto`).auth('dto-viewer', PASSWORD);
  expect(res.status).toBe(200);
  expect(res.body.access).toMatchObject({ canSave: false, canEdit: false, canAdmin: false, canDelete: false, canStar: true });
  expect(res.body.access.annotationsPermissions.dashboard).toEqual({ canAdd: false, canEdit: false, canDelete: false });
  // The server admin, Admin of the org, holds every right.
  expect((await t.as.get(`${DASHBOARDS}/dto-viewer/dto`)).body.access).toMatchObject({ canSave: true, canEdit: true, canAdmin: true, canDelete: true, canStar: true });
});
