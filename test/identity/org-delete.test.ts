import { identityKinds, internalKinds } from '../../apis';
import { watchApis } from '../support/apis-watch';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

/**
 * `DELETE /api/orgs/:orgId` (server admins): the organization and everything of it go in one transaction, under
 * /api and /apis, with a DELETED watch event per object; its users remain; other organizations are untouched.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

const ACTIVE = 'Cannot delete your active organization. Please switch to a different organization first.';
const apis = (group: string, resource: string, org: number) => `/apis/${group}/namespaces/org-${org}/${resource}`;
const DASHBOARDS = (org: number) => apis('dashboard.svc.app/v1beta1', 'dashboards', org);

async function newOrg(name: string): Promise<number> {
  const res = await t.as.post('/api/orgs').send({ name });
  expect(res.status).toBe(200);
  return res.body.orgId as number;
}

/** An organization with one of everything, made through /api as its Admin (the server admin): what each call answered. */
async function populate(org: number, tag: string) {
  const hdr = ['X-Svc-Org-Id', String(org)] as const;
  const folder = await t.as.post('/api/folders').set(...hdr).send({ uid: `f-${tag}`, title: `F ${tag}` }).expect(200);
  const dash = await t.as.post('/api/dashboards/db').set(...hdr).send({ dashboard: { uid: `d-${tag}`, title: `D ${tag}` }, folderUid: folder.body.uid }).expect(200);
  await t.as.post('/api/datasources').set(...hdr).send({ name: `ds-${tag}`, uid: `ds-${tag}`, type: 'prometheus', url: 'http://127.0.0.1:9', access: 'proxy' }).expect(200);
  const team = await t.as.post('/api/teams').set(...hdr).send({ name: `team-${tag}` }).expect(200);
  const sa = await t.as.post('/api/serviceaccounts').set(...hdr).send({ name: `robot-${tag}`, role: 'Admin' }).expect(201);
  const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).set(...hdr).send({ name: 'key' }).expect(200);
  await t.as.post('/api/playlists').set(...hdr).send({ name: `P ${tag}`, interval: '5m', items: [] }).expect(200);
  await t.as.post('/api/org/invites').set(...hdr).send({ loginOrEmail: `invitee-${tag}@example.org`, role: 'Viewer', sendEmail: false }).expect(200);
  await t.as.post(`/api/user/stars/dashboard/uid/d-${tag}`).set(...hdr).expect(200);
  await t.as.put('/api/org/preferences').set(...hdr).send({ theme: 'dark' }).expect(200);
  return { hdr, dashboardUid: dash.body.uid as string, teamId: team.body.teamId as number, saId: sa.body.id as number, key: token.body.key as string };
}

/** Every stored object of the namespace, by type, whatever registry keeps it. */
async function storedIn(namespace: string): Promise<string[]> {
  const found: string[] = [];
  for (const kind of [...t.registry.kinds, ...identityKinds, ...internalKinds]) {
    const page = await t.storage.list({ group: kind.group, resource: kind.plural, namespace });
    for (const s of page.items) found.push(`${kind.plural}/${s.key.name}`);
  }
  return [...new Set(found)].sort();
}

describe('DELETE /api/orgs/:orgId', () => {
  it('deletes the organization and everything of it in one go; watches see each deletion; users remain; other orgs are untouched', async () => {
    const doomed = await newOrg('Doomed');
    const kept = await newOrg('Kept');
    const d = await populate(doomed, 'x');
    const k = await populate(kept, 'x');
    const mover = await createUser(t, 'org-del-mover', { [doomed]: 'Editor', [kept]: 'Viewer' });
    const lonely = await createUser(t, 'org-del-lonely', { [doomed]: 'Viewer' });
    const bearer = (key: string) => t.anonymous.get('/api/search').set('Authorization', `Bearer ${key}`);
    expect((await bearer(d.key)).status).toBe(200);
    expect((await storedIn(`org-${doomed}`)).length).toBeGreaterThan(10);
    const keptBefore = await storedIn(`org-${kept}`);

    const list = await t.as.get(DASHBOARDS(doomed)).expect(200);
    const watch = await watchApis(t.app, `${DASHBOARDS(doomed)}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      const res = await t.as.delete(`/api/orgs/${doomed}`);
      expect([res.status, res.body]).toEqual([200, { message: 'Organization deleted' }]);
      const [event] = await watch.until(1);
      expect([event.type, event.object.metadata.name]).toEqual(['DELETED', d.dashboardUid]);
    } finally {
      await watch.close();
    }

    // Nothing of it is stored any more, in its namespace or elsewhere (its service account's token).
    expect(await storedIn(`org-${doomed}`)).toEqual([]);
    const tokens = await t.storage.list({ group: 'iam.svc.app', resource: 'serviceaccounttokens', namespace: 'svc-identity', labels: [{ key: 'svc.app/org-id', operator: 'Equals', values: [String(doomed)] }] });
    expect(tokens.items).toEqual([]);
    expect((await bearer(d.key)).status).toBe(401);
    // Under /api and /apis: the organization is no more.
    expect((await t.as.get(`/api/orgs/${doomed}`)).status).toBe(404);
    expect((await t.as.get('/api/orgs')).body.map((o: { name: string }) => o.name)).not.toContain('Doomed');
    const ns = await t.as.get(DASHBOARDS(doomed));
    expect([ns.status, ns.body.message]).toEqual([404, `namespaces "org-${doomed}" not found`]);
    expect((await t.as.get(`/api/dashboards/uid/${d.dashboardUid}`).set(...d.hdr)).status).toBe(403);
    expect((await t.as.get('/api/search?query=D x')).body).toEqual([]);

    // Users remain, without the membership; one whose current org it was moves to another it belongs to.
    expect((await t.as.get(`/api/users/${mover.id}`)).body).toMatchObject({ login: 'org-del-mover', orgId: kept });
    expect((await t.as.get(`/api/users/${mover.id}/orgs`)).body).toEqual([{ orgId: kept, name: 'Kept', role: 'Viewer' }]);
    expect((await as(t, 'org-del-mover').get('/api/user')).body).toMatchObject({ orgId: kept });
    expect((await t.as.get(`/api/users/${lonely.id}/orgs`)).body).toEqual([]);
    expect((await as(t, 'org-del-lonely').get('/api/user/orgs')).status).toBe(200);

    // The other organization keeps everything, its token included.
    expect(await storedIn(`org-${kept}`)).toEqual(keptBefore);
    expect((await bearer(k.key)).status).toBe(200);
    expect((await t.as.get(`/api/dashboards/uid/${k.dashboardUid}`).set(...k.hdr)).status).toBe(200);
    expect((await t.as.get(`/api/teams/${k.teamId}`).set(...k.hdr)).status).toBe(200);

    // Deleting it again: 404, the anchor's message.
    const again = await t.as.delete(`/api/orgs/${doomed}`);
    expect([again.status, again.body]).toEqual([404, { message: 'Failed to delete organization. ID not found' }]);
  }, 90_000);

  it('refuses the organization the request acts in, bad ids and callers other than server admins, changing nothing', async () => {
    const org = await newOrg('Guarded');
    await createUser(t, 'org-del-admin', { [org]: 'Admin' });
    const cases: [string, () => Promise<{ status: number; body: unknown }>, number, unknown][] = [
      ['the current org', () => t.as.delete('/api/orgs/1'), 400, { message: ACTIVE }],
      ['the org the header selects', () => t.as.delete(`/api/orgs/${org}`).set('X-Svc-Org-Id', String(org)), 400, { message: ACTIVE }],
      ['an unknown id', () => t.as.delete('/api/orgs/99999'), 404, { message: 'Failed to delete organization. ID not found' }],
      ['an id not a number', () => t.as.delete('/api/orgs/abc'), 400, { message: 'orgId is invalid' }],
      ['a negative id', () => t.as.delete('/api/orgs/-2'), 400, { message: 'orgId is invalid' }],
      ['an id too large', () => t.as.delete('/api/orgs/99999999999999999999'), 400, { message: 'orgId is invalid' }],
      ['a quote in the id', () => t.as.delete("/api/orgs/2'%20OR%201=1"), 400, { message: 'orgId is invalid' }],
      ['the org\'s own Admin', () => as(t, 'org-del-admin').delete(`/api/orgs/${org}`).set('X-Svc-Org-Id', '1'), 403, expect.objectContaining({ message: expect.any(String) })],
      ['no credentials', () => t.anonymous.delete(`/api/orgs/${org}`), 401, expect.objectContaining({ message: expect.any(String) })],
    ];
    for (const [what, call, status, body] of cases) {
      const res = await call();
      expect([what, res.status, res.body]).toEqual([what, status, body]);
    }
    expect((await t.as.get(`/api/orgs/${org}`)).status).toBe(200);
    expect((await t.as.get('/api/orgs/1')).status).toBe(200);
  });

  it('deletes the main organization too when the request acts in another, as the anchor', async () => {
    const other = await newOrg('Elsewhere');
    const res = await t.as.delete('/api/orgs/1').set('X-Svc-Org-Id', String(other));
    expect([res.status, res.body]).toEqual([200, { message: 'Organization deleted' }]);
    expect(await storedIn('default')).toEqual([]);
    expect((await t.as.get('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards')).status).toBe(404);
    // The admin's current organization is now the first it still belongs to.
    const orgs = ((await t.as.get('/api/user/orgs')).body as { orgId: number }[]).map((o) => o.orgId);
    expect(orgs).toContain(other);
    expect(orgs).not.toContain(1);
    expect((await t.as.get('/api/user')).body).toMatchObject({ orgId: Math.min(...orgs) });
  });
});
