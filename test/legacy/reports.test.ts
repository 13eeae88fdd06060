/**
 * Reporting (the enterprise edition's Reporting API) through HTTP: reports as the Report kind of each organization
 * (numeric ids, dashboards by uid), their branding settings, the anchor's messages, validation (400, nothing
 * stored), the actions on `reports:id:<id>` per caller, and 404 for every route in the open-source edition.
 */
import { internalKinds, reportKind, reportSettingsKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { as, createUser, PASSWORD } from '../support/users';

/** Every Report object of an organization, as stored. */
async function storedReports(t: TestApp, orgId = 1): Promise<unknown[]> {
  const registry = t.registry.companion(internalKinds);
  return (await registry.list({ requester: SYSTEM, namespace: registry.namespaces.of(orgId), fieldManager: 'test' }, anyKind(reportKind), {})).items.map((o) => o.spec);
}
async function storedSettings(t: TestApp, orgId = 1): Promise<unknown[]> {
  const registry = t.registry.companion(internalKinds);
  return (await registry.list({ requester: SYSTEM, namespace: registry.namespaces.of(orgId), fieldManager: 'test' }, anyKind(reportSettingsKind), {})).items.map((o) => o.spec);
}

/** The anchor documentation's example report, on dashboard `uid`. */
const reportBody = (uid: string, extra: object = {}) => ({
  name: 'Report 4',
  recipients: 'example-report@example.org, ops@example.org',
  replyTo: '',
  message: 'Hello, please, find the report attached',
  schedule: { startDate: '2026-10-02T10:00:00+02:00', endDate: '2026-11-02T20:00:00+02:00', frequency: 'daily', intervalFrequency: '', intervalAmount: 0, workdaysOnly: true, timeZone: 'Europe/Warsaw' },
  options: { orientation: 'landscape', layout: 'grid' },
  enableDashboardUrl: true,
  dashboards: [{ dashboard: { uid }, timeRange: { from: '2026-08-08T15:00:00+02:00', to: '2026-09-02T17:00:00+02:00' }, reportVariables: { variable1: 'Value1' } }],
  formats: ['pdf', 'csv'],
  ...extra,
});

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 on every reporting route, storing nothing', async () => {
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'oss-dash' }, spec: { title: 'OSS' } }).expect(201);
    for (const res of [
      await t.as.get('/api/reports'),
      await t.as.post('/api/reports').send(reportBody('oss-dash')),
      await t.as.get('/api/reports/1'),
      await t.as.put('/api/reports/1').send(reportBody('oss-dash')),
      await t.as.delete('/api/reports/1'),
      await t.as.get('/api/reports/settings'),
      await t.as.post('/api/reports/settings').send({ branding: {} }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found' });
    }
    expect(await storedReports(t)).toEqual([]);
    expect(await storedSettings(t)).toEqual([]);
  });
});

describe('enterprise edition', () => {
  let t: TestApp;
  let otherOrg: number;
  let dashboardId: number;
  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
    const res = await t.as.post(DASHBOARDS).send({ metadata: { name: 'api-latency' }, spec: { title: 'API latency' } }).expect(201);
    dashboardId = Number(res.body.metadata.labels['svc.app/deprecatedInternalID']);
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'second' }, spec: { title: 'Second' } }).expect(201);
    otherOrg = (await t.users.createOrg(SYSTEM, 'Elsewhere')).id;
    await createUser(t, 'rp-viewer', { 1: 'Viewer' });
    await createUser(t, 'rp-editor', { 1: 'Editor' });
    await createUser(t, 'rp-admin', { 1: 'Admin' });
    await createUser(t, 'rp-other', { [otherOrg]: 'Admin' });
  });
  afterAll(() => t.close());

  it('creates, reads, lists, updates and deletes a report with the anchor\'s bodies and messages', async () => {
    const created = await t.as.post('/api/reports').send(reportBody('api-latency'));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), message: 'Report created' });
    const id = created.body.id as number;

    const got = await t.as.get(`/api/reports/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id,
      userId: 1,
      orgId: 1,
      dashboardId,
      dashboardName: 'API latency',
      dashboardUid: 'api-latency',
      name: 'Report 4',
      recipients: 'example-report@example.org,ops@example.org',
      replyTo: '',
      message: 'Hello, please, find the report attached',
      schedule: { startDate: '2026-10-02T10:00:00+02:00', endDate: '2026-11-02T20:00:00+02:00', frequency: 'daily', intervalFrequency: '', intervalAmount: 0, workdaysOnly: true, dayOfMonth: '', timeZone: 'Europe/Warsaw' },
      options: { orientation: 'landscape', layout: 'grid', timeRange: { from: '', to: '' } },
      templateVars: {},
      enableDashboardUrl: true,
      enableCsv: false,
      state: 'scheduled',
      dashboards: [{ dashboard: { id: dashboardId, uid: 'api-latency', name: 'API latency' }, timeRange: { from: '2026-08-08T15:00:00+02:00', to: '2026-09-02T17:00:00+02:00' }, reportVariables: { variable1: 'Value1' } }],
      formats: ['pdf', 'csv'],
      scaleFactor: 2,
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect((await t.as.get('/api/reports')).body.map((r: { id: number }) => r.id)).toContain(id);

    const updated = await t.as.put(`/api/reports/${id}`).send(reportBody('second', { name: 'Updated Report', schedule: { frequency: 'hourly', timeZone: 'Africa/Cairo' }, state: 'paused' }));
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ message: 'Report updated' });
    const after = (await t.as.get(`/api/reports/${id}`)).body;
    expect(after).toMatchObject({ id, name: 'Updated Report', dashboardUid: 'second', dashboardName: 'Second', state: 'paused', schedule: { frequency: 'hourly', timeZone: 'Africa/Cairo', startDate: null, endDate: null } });

    const removed = await t.as.delete(`/api/reports/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Report config was removed' });
    for (const res of [await t.as.get(`/api/reports/${id}`), await t.as.delete(`/api/reports/${id}`), await t.as.put(`/api/reports/${id}`).send(reportBody('api-latency'))]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Report not found' });
    }
  });

  it('numbers reports with ids that are never reused, each the object named by it', async () => {
    const a = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'A' }))).body.id as number;
    const b = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'B' }))).body.id as number;
    expect(b).toBeGreaterThan(a);
    await t.as.delete(`/api/reports/${b}`).expect(200);
    const c = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'C' }))).body.id as number;
    expect(c).toBeGreaterThan(b);
    const registry = t.registry.companion(internalKinds);
    const stored = await registry.get({ requester: SYSTEM, namespace: 'default', fieldManager: 'test' }, anyKind(reportKind), String(c));
    expect(stored.spec).toMatchObject({ name: 'C', recipients: ['example-report@example.org', 'ops@example.org'], dashboards: [{ uid: 'api-latency' }] });
  });

  it('keeps organizations apart: another organization\'s report is not found, listed, changed or deleted', async () => {
    const id = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'Org 1 only' }))).body.id as number;
    const other = as(t, 'rp-other');
    expect((await other.get('/api/reports')).body).toEqual([]);
    for (const res of [await other.get(`/api/reports/${id}`), await other.put(`/api/reports/${id}`).send(reportBody('api-latency')), await other.delete(`/api/reports/${id}`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Report not found' });
    }
    // Its own dashboards are another organization's: org 1's uid is none of them.
    const res = await other.post('/api/reports').send(reportBody('api-latency'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Dashboard not found' });
    expect(await storedReports(t, otherOrg)).toEqual([]);
    expect((await t.as.get(`/api/reports/${id}`)).body.name).toBe('Org 1 only');
  });

  it.each([
    ['no JSON object', [1, 2], 'bad request data'],
    ['no name', { name: '' }, 'name: must not be empty'],
    ['a recipient that is no address', { recipients: 'ops@example.org, not an address' }, 'recipients[1]: must be an email address'],
    ['no recipients', { recipients: '' }, 'recipients: at least one recipient is required'],
    ['a bad reply-to', { replyTo: 'nobody' }, 'replyTo'],
    ['an unknown frequency', { schedule: { frequency: 'sometimes' } }, 'schedule.frequency'],
    ['a custom schedule without interval', { schedule: { frequency: 'custom', intervalFrequency: 'weeks', intervalAmount: 0 } }, 'schedule.intervalAmount'],
    ['an end before the start', { schedule: { frequency: 'daily', startDate: '2026-10-02T10:00:00Z', endDate: '2026-10-01T10:00:00Z' } }, 'schedule.endDate: must be after startDate'],
    ['a start that is no date', { schedule: { frequency: 'daily', startDate: 'tomorrow' } }, 'schedule.startDate'],
    ['an unknown time zone', { schedule: { frequency: 'daily', timeZone: 'Mars/Olympus' } }, 'schedule.timeZone: unknown time zone "Mars/Olympus"'],
    ['an unknown orientation', { options: { orientation: 'diagonal' } }, 'options.orientation'],
    ['an unknown layout', { options: { layout: 'spiral' } }, 'options.layout'],
    ['an unknown format', { formats: ['docx'] }, 'formats[0]'],
    ['an unknown state', { state: 'running' }, 'state'],
    ['no dashboards', { dashboards: [] }, 'dashboards: at least one dashboard is required'],
    ['a dashboard without uid', { dashboards: [{ dashboard: {} }] }, 'dashboards[0].uid: must not be empty'],
    ['dashboards that are no list', { dashboards: 'api-latency' }, 'dashboards: must be a list'],
    ['a bad time range', { dashboards: [{ dashboard: { uid: 'api-latency' }, timeRange: { from: 'yesterday', to: 'now' } }] }, 'dashboards[0].timeRange: invalid time range'],
    ['a range ending before it starts', { dashboards: [{ dashboard: { uid: 'api-latency' }, timeRange: { from: 'now', to: 'now-1h' } }] }, 'dashboards[0].timeRange: from is after to'],
    ['a scale factor out of range', { scaleFactor: 9 }, 'scaleFactor'],
    ['a name of the wrong type', { name: 7 }, 'name'],
  ])('answers 400 for %s, storing nothing', async (_what, change, message) => {
    const before = await storedReports(t);
    const body = Array.isArray(change) ? change : reportBody('api-latency', change);
    const res = await t.as.post('/api/reports').send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await storedReports(t)).toEqual(before);
    // An update with the same body changes nothing either.
    const id = (await t.as.get('/api/reports')).body[0]?.id ?? 1;
    const put = await t.as.put(`/api/reports/${id}`).send(body);
    expect(put.status).toBe(400);
    expect(await storedReports(t)).toEqual(before);
  });

  it('answers 400 for a report id that is no number, 404 for a dashboard the organization does not have', async () => {
    for (const res of [await t.as.get('/api/reports/abc'), await t.as.put('/api/reports/0').send(reportBody('api-latency')), await t.as.delete('/api/reports/-1')]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'invalid report id' });
    }
    const res = await t.as.post('/api/reports').send(reportBody('no-such-dashboard'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Dashboard not found' });
  });

  it('serves an organization\'s branding settings: defaults, then what was saved; bad ones 400', async () => {
    const defaults = await t.as.get('/api/reports/settings');
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({ id: 0, userId: 0, orgId: 1, branding: { reportLogoUrl: '', emailLogoUrl: '', emailFooterMode: 'sent-by', emailFooterText: 'Svc', emailFooterLink: '' } });
    const branding = { reportLogoUrl: 'https://example.org/reportLogo.jpg', emailLogoUrl: 'https://example.org/emailLogo.jpg', emailFooterMode: 'sent-by', emailFooterText: 'Ops', emailFooterLink: 'https://example.org/' };
    const saved = await t.as.post('/api/reports/settings').send({ branding });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ message: 'Report settings saved' });
    const got = (await t.as.get('/api/reports/settings')).body;
    expect(got).toEqual({ id: expect.any(Number), userId: 1, orgId: 1, branding });
    expect(got.id).toBeGreaterThan(0);
    // Saved again: the same settings object, changed.
    await t.as.post('/api/reports/settings').send({ branding: { emailFooterMode: 'none' } }).expect(200);
    expect((await t.as.get('/api/reports/settings')).body).toEqual({ id: got.id, userId: 1, orgId: 1, branding: { reportLogoUrl: '', emailLogoUrl: '', emailFooterMode: 'none', emailFooterText: '', emailFooterLink: '' } });
    // Another organization's are its own.
    expect((await as(t, 'rp-other').get('/api/reports/settings')).body).toMatchObject({ id: 0, orgId: otherOrg });

    for (const [body, message] of [
      ['x', 'bad request data'],
      [{ branding: { reportLogoUrl: 'javascript:alert(1)' } }, 'branding.reportLogoUrl: must be an http or https URL'],
      [{ branding: { emailFooterMode: 'loud' } }, 'branding.emailFooterMode'],
      [{ branding: { emailFooterMode: 'sent-by', emailFooterText: '' } }, 'branding.emailFooterText: required with emailFooterMode sent-by'],
    ] as const) {
      const res = await t.as.post('/api/reports/settings').set('Content-Type', 'application/json').send(typeof body === 'string' ? JSON.stringify(body) : body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect(await storedSettings(t)).toEqual([{ branding: { reportLogoUrl: '', emailLogoUrl: '', emailFooterMode: 'none', emailFooterText: '', emailFooterLink: '' } }]);
  });

  describe('authorization', () => {
    let reportId: number;
    beforeAll(async () => {
      reportId = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'Guarded' }))).body.id;
    });
    /** Org Admins and server admins hold the anchor's fixed reports roles; Viewers and Editors nothing. */
    const rows: [string, () => { method: 'get' | 'post' | 'put' | 'delete'; path: string; body?: object }, number][] = [
      ['GET /api/reports', () => ({ method: 'get', path: '/api/reports' }), 200],
      ['POST /api/reports', () => ({ method: 'post', path: '/api/reports', body: reportBody('api-latency') }), 200],
      ['GET /api/reports/:id', () => ({ method: 'get', path: `/api/reports/${reportId}` }), 200],
      ['PUT /api/reports/:id', () => ({ method: 'put', path: `/api/reports/${reportId}`, body: reportBody('api-latency', { name: 'Guarded' }) }), 200],
      ['GET /api/reports/settings', () => ({ method: 'get', path: '/api/reports/settings' }), 200],
      ['POST /api/reports/settings', () => ({ method: 'post', path: '/api/reports/settings', body: { branding: { emailFooterMode: 'none' } } }), 200],
    ];
    const callers: [string, (r: ReturnType<typeof t.anonymous.get>) => ReturnType<typeof t.anonymous.get>, 'ok' | number][] = [
      ['anonymous', (r) => r, 401],
      ['a Viewer', (r) => r.auth('rp-viewer', PASSWORD), 403],
      ['an Editor', (r) => r.auth('rp-editor', PASSWORD), 403],
      ['an org Admin', (r) => r.auth('rp-admin', PASSWORD), 'ok'],
      ['the server admin', (r) => r.auth(ADMIN.user, ADMIN.password), 'ok'],
      ['another organization\'s Admin', (r) => r.auth('rp-other', PASSWORD).set('X-Svc-Org-Id', '1'), 403],
    ];
    it.each(rows.flatMap(([route, call, ok]) => callers.map(([who, auth, status]) => [route, who, status === 'ok' ? ok : status, call, auth] as const)))('%s: %s gets %i', async (_route, _who, status, call, auth) => {
      const c = call();
      const res = await auth(t.anonymous[c.method](c.path)).send(c.body);
      expect(res.status).toBe(status);
      if (status >= 400) expect(typeof res.body.message).toBe('string');
    });
    it('DELETE /api/reports/:id: only those who may delete reports', async () => {
      for (const [, auth, status] of callers) {
        const id = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'Doomed' }))).body.id;
        expect((await auth(t.anonymous.delete(`/api/reports/${id}`))).status).toBe(status === 'ok' ? 200 : status);
      }
    });

    it('a custom role with reports:read on one report reads that one alone', async () => {
      const other = (await t.as.post('/api/reports').send(reportBody('api-latency', { name: 'Not yours' }))).body.id as number;
      const role = await t.as.post('/api/access-control/roles').send({ name: 'custom:one-report', permissions: [{ action: 'reports:read', scope: `reports:id:${reportId}` }] });
      expect(role.status).toBe(201);
      const user = await createUser(t, 'rp-one', { 1: 'Viewer' });
      await t.as.post(`/api/access-control/users/${user.id}/roles`).send({ roleUid: role.body.uid }).expect(200);
      const one = as(t, 'rp-one');
      expect((await one.get(`/api/reports/${reportId}`)).status).toBe(200);
      const refused = await one.get(`/api/reports/${other}`);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('reports:read');
      expect((await one.get('/api/reports')).body.map((r: { id: number }) => r.id)).toEqual([reportId]);
      expect((await one.put(`/api/reports/${reportId}`).send(reportBody('api-latency'))).status).toBe(403);
    });
  });
});
