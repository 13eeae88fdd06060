import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { nameOf, storedDashboard as stored } from '../../test/fixtures/legacy-dashboard';
import {
  fromDashboardFullWithMeta,
  GENERAL_FOLDER,
  isV2Dashboard,
  parseSaveCommand,
  toDashboardFullWithMeta,
  toDeleteResponse,
  toNewDashboard,
  toPostDashboardResponse,
  toSaveCommand,
  toTagCloud,
  toUpdatedDashboard,
} from './dashboards-conversions';
import { legacyError } from '../shared/errors';
import { dashboardErrors } from './dashboards-errors';
import { homeDashboard } from './home-dashboard';

describe('save command', () => {
  it('round-trips a stored dashboard through the command a client would re-send', () => {
    const cmd = toSaveCommand(stored);
    expect(cmd).toEqual({ dashboard: { title: 'API: latency', tags: ['prod'] }, id: 7, uid: 'abc', version: 3, folderUid: 'ops', overwrite: false, message: 'tuned' });
    const body = { dashboard: { ...cmd.dashboard, id: cmd.id, uid: cmd.uid, version: cmd.version }, folderUid: cmd.folderUid, message: cmd.message, overwrite: false };
    expect(parseSaveCommand(body)).toEqual(cmd);
  });

  it('reads null and empty id, uid and folders as absent', () => {
    expect(parseSaveCommand({ dashboard: { id: null, uid: '', title: 't' }, folderUid: '', folderId: 0 })).toEqual({ dashboard: { title: 't' }, overwrite: false, message: '' });
  });

  it('refuses what the anchor refuses before saving', () => {
    const fails = (body: unknown) => {
      try {
        parseSaveCommand(body);
      } catch (err) {
        return (err as StatusError).message;
      }
      return 'accepted';
    };
    expect(fails({ dashboard: { title: 't' }, isFolder: true })).toBe('Use folders endpoint for saving folders.');
    expect(fails({ dashboard: { title: 't' }, message: 'x'.repeat(501) })).toBe('message too long, max 500 characters');
    expect(fails({ dashboard: { title: 't' }, message: 'x'.repeat(500) })).toBe('accepted');
    expect(fails({ dashboard: { id: 'seven', title: 't' } })).toBe('bad request data');
    expect(fails(null)).toBe('bad request data');
  });

  it('builds the Dashboard to create, and the update that keeps foreign metadata but replaces folder and message', () => {
    expect(toNewDashboard({ title: 'A' }, { uid: 'a' }, { folderUid: 'f', message: 'hi' })).toEqual({
      metadata: { name: 'a', annotations: { 'svc.app/folder': 'f', 'svc.app/message': 'hi' } },
      spec: { title: 'A' },
    });
    expect(toNewDashboard({ title: 'A' }, { generatePrefix: 'p' }, { folderUid: '', message: '' })).toEqual({ metadata: { generateName: 'p' }, spec: { title: 'A' } });
    const updated = toUpdatedDashboard(stored, { title: 'B' }, { folderUid: '', message: '', restoredFrom: 2 }) as unknown as Resource;
    expect(updated.spec).toEqual({ title: 'B' });
    expect(updated.metadata.labels).toEqual(stored.metadata.labels);
    expect(updated.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
    expect(updated.metadata.annotations).toEqual({
      'svc.app/createdBy': 'user:u1',
      'svc.app/updatedBy': 'user:u2',
      'svc.app/updatedTimestamp': '2026-01-02T00:00:00Z',
      other: 'kept',
      'svc.app/restoredFrom': '2',
    });
  });
});

describe('responses', () => {
  it('answers a save with the anchor fields', () => {
    expect(toPostDashboardResponse(stored)).toEqual({ id: 7, uid: 'abc', url: '/d/abc/api-latency', status: 'success', version: 3, slug: 'api-latency', folderUid: 'ops' });
  });

  it('round-trips a dashboard through its full DTO with meta', () => {
    const rights = { canSave: true, canEdit: true, canAdmin: false, canStar: true, canDelete: false };
    const dto = toDashboardFullWithMeta(stored, { folder: { id: 4, uid: 'ops', title: 'Ops Team' }, rights, isStarred: true, nameOf });
    expect(dto.dashboard).toEqual({ title: 'API: latency', tags: ['prod'], id: 7, uid: 'abc', version: 3 });
    expect(dto.meta).toMatchObject({
      ...rights,
      isStarred: true,
      createdBy: 'ana',
      updatedBy: 'bo',
      created: '2026-01-01T00:00:00Z',
      updated: '2026-01-02T00:00:00Z',
      folderId: 4,
      folderUid: 'ops',
      folderTitle: 'Ops Team',
      folderUrl: '/dashboards/f/ops/ops-team',
      url: '/d/abc/api-latency',
      slug: 'api-latency',
      version: 3,
    });
    expect(fromDashboardFullWithMeta(dto)).toEqual({ name: 'abc', folderUid: 'ops', generation: 3, spec: { title: 'API: latency', tags: ['prod'] } });
    const atRoot = toDashboardFullWithMeta(stored, { folder: GENERAL_FOLDER, rights, isStarred: false, nameOf });
    expect(atRoot.meta).toMatchObject({ folderId: 0, folderUid: '', folderTitle: 'General', folderUrl: '' });
  });

  it('names each counted tag a term', () => {
    expect(toTagCloud([{ tag: 'a', count: 2 }, { tag: 'b', count: 1 }])).toEqual([
      { term: 'a', count: 2 },
      { term: 'b', count: 1 },
    ]);
  });

  it('answers a delete with title, message, uid and id', () => {
    expect(toDeleteResponse(stored)).toEqual({ title: 'API: latency', message: 'Dashboard API: latency deleted', uid: 'abc', id: 7 });
  });

  it('serves a home dashboard nobody saves or stars', () => {
    const home = homeDashboard({ canEdit: true });
    expect(home.dashboard.title).toBe('Home');
    expect(home.meta).toMatchObject({ isHome: true, canSave: false, canEdit: true, canStar: false, url: '/', folderTitle: 'General' });
    home.dashboard.title = 'changed';
    expect(homeDashboard({ canEdit: false }).dashboard.title).toBe('Home');
  });
});

describe('errors', () => {
  const gr = { group: 'dashboard.svc.app', resource: 'dashboards' };
  const gk = { group: 'dashboard.svc.app', kind: 'Dashboard' };
  const legacy = (err: StatusError) => {
    const out = legacyError(dashboardErrors, err) as StatusError;
    return [out.code, out.message, out.statusWord];
  };

  it("words the registry's answers as the anchor does", () => {
    expect(legacy(StatusError.notFound(gr, 'a'))).toEqual([404, 'Dashboard not found', 'Failure']);
    expect(legacy(StatusError.alreadyExists(gr, 'a'))).toEqual([412, 'A dashboard with the same uid already exists', 'name-exists']);
    expect(legacy(StatusError.conflict(gr, 'a'))).toEqual([412, 'The dashboard has been changed by someone else', 'version-mismatch']);
    expect(legacy(StatusError.invalid(gk, 'a', [{ field: 'spec.title', message: 'Dashboard title cannot be empty' }]))).toEqual([400, 'Dashboard title cannot be empty', 'empty-name']);
    expect(legacy(StatusError.invalid(gk, 'a', [{ field: 'metadata.name', message: 'Too long: may not be more than 40 characters' }]))).toEqual([400, 'uid too long, max 40 characters', 'Failure']);
    expect(legacy(StatusError.invalid(gk, 'a', [{ field: 'metadata.name', message: 'Invalid value: "a b"' }]))).toEqual([400, 'uid contains illegal characters', 'Failure']);
    expect(legacy(StatusError.invalid(gk, 'a', [{ field: 'spec.panels', message: 'expected array' }]))).toEqual([400, 'Dashboard.dashboard.svc.app "a" is invalid: spec.panels: expected array', 'Failure']);
    expect(legacy(StatusError.badRequest('folder "x" not found', [{ field: 'metadata.annotations[svc.app/folder]', message: 'Not found: "x"' }]))).toEqual([400, 'folder not found', 'Failure']);
  });

  it('passes other errors unchanged', () => {
    const forbidden = StatusError.forbidden(gr, 'a', 'no');
    expect(legacyError(dashboardErrors, forbidden)).toBe(forbidden);
    const plain = new Error('x');
    expect(legacyError(dashboardErrors, plain)).toBe(plain);
  });
});

describe('isV2Dashboard', () => {
  it('is true for the v2 spec (elements and layout) or a v2 apiVersion, false for a classic model', () => {
    expect(isV2Dashboard({ title: 'A', elements: {}, layout: { kind: 'GridLayout' } })).toBe(true);
    expect(isV2Dashboard({ apiVersion: 'dashboard.svc.app/v2beta1', spec: {} })).toBe(true);
    expect(isV2Dashboard({ apiVersion: 'v2alpha1' })).toBe(true);
    expect(isV2Dashboard({ title: 'A', panels: [], layout: { kind: 'x' } })).toBe(false);
    expect(isV2Dashboard({ title: 'A', elements: [], layout: {} })).toBe(false);
    expect(isV2Dashboard({ apiVersion: 'dashboard.svc.app/v1beta1' })).toBe(false);
    expect(isV2Dashboard(null)).toBe(false);
    expect(isV2Dashboard('x')).toBe(false);
  });
});
