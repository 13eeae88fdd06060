import { accessDenied, Authorizer, permissionDenied, type FolderTree, type RoleSource } from './authorizer';
import { ManagedGrants } from './grants';
import {
  dashboardScope as dash,
  defaultPermissionItems,
  folderScope as folder,
  type ManagedPermissionItem,
  type OrgRole,
  type Permission,
  type Subject,
} from './permissions';

/**
 * An org with three levels of folders and a restricted root folder:
 *   general ─ d-root
 *   top ─ d-top ─ mid ─ leaf ─ d-leaf
 *   other ─ d-other
 *   secret ─ d-secret          (created without the default role grants)
 */
const PARENT: Record<string, string | undefined> = {
  top: undefined,
  mid: 'top',
  leaf: 'mid',
  other: undefined,
  secret: undefined,
};
const DASHBOARD_FOLDER: Record<string, string | undefined> = {
  'd-root': undefined,
  'd-top': 'top',
  'd-leaf': 'leaf',
  'd-other': 'other',
  'd-secret': 'secret',
};

function treeWithCounts() {
  const calls = { ancestorsOf: 0, folderOf: 0 };
  const tree: FolderTree = {
    async ancestorsOf(uid) {
      calls.ancestorsOf++;
      const out: string[] = [];
      for (let p = PARENT[uid]; p; p = PARENT[p]) out.push(p);
      return out;
    },
    async folderOf(uid) {
      calls.folderOf++;
      return DASHBOARD_FOLDER[uid];
    },
  };
  return { tree, calls };
}

const creator = { kind: 'user' as const, uid: 'creator' };
const DEFAULTS: ManagedPermissionItem[] = [
  ...defaultPermissionItems('folders', 'top', undefined, creator),
  ...defaultPermissionItems('folders', 'mid', 'top', creator),
  ...defaultPermissionItems('folders', 'leaf', 'mid', creator),
  ...defaultPermissionItems('folders', 'other', undefined, creator),
  ...defaultPermissionItems('dashboards', 'd-root', undefined, creator),
  ...defaultPermissionItems('dashboards', 'd-leaf', 'leaf', creator),
  { resource: 'folders', uid: 'secret', grantee: { kind: 'user', uid: 'creator' }, permission: 'Admin' },
];

function authorizer(extra: ManagedPermissionItem[] = [], custom: Record<string, Permission[]> = {}) {
  const { tree, calls } = treeWithCounts();
  const roles: RoleSource = {
    async permissionsFor(_orgId, assignees) {
      return assignees.flatMap((a) => custom[`${a.kind}:${a.uid}`] ?? []);
    },
  };
  const authz = new Authorizer({ tree, managed: { grantsFor: async () => ManagedGrants.of([...DEFAULTS, ...extra]) }, roles });
  return { authz, calls };
}

const subject = (orgRole: OrgRole, over: Partial<Subject> = {}): Subject => ({
  kind: 'user',
  uid: `a-${orgRole.toLowerCase()}`,
  orgId: 1,
  orgRole,
  isServerAdmin: false,
  teamUids: [],
  ...over,
});

describe('Authorizer: basic roles with default folder permissions', () => {
  const { authz } = authorizer();
  it.each<[OrgRole, string, string, boolean]>([
    ['Viewer', 'dashboards:read', dash('d-leaf'), true], // View on top, inherited two levels down
    ['Viewer', 'dashboards:read', dash('d-root'), true],
    ['Viewer', 'dashboards:read', dash('d-secret'), false],
    ['Viewer', 'dashboards:write', dash('d-leaf'), false],
    ['Viewer', 'folders:read', folder('mid'), true],
    ['Viewer', 'folders:read', folder('secret'), false],
    ['Viewer', 'folders:read', folder(undefined), true],
    ['Viewer', 'folders:create', folder(undefined), false],
    ['Viewer', 'datasources:query', 'datasources:uid:prom', false], // only through the Query item a new data source gives Viewers
    ['Viewer', 'datasources:read', 'datasources:uid:prom', false],
    ['Viewer', 'datasources:write', 'datasources:uid:prom', false],
    ['Viewer', 'playlists:read', 'playlists:uid:p1', true],
    ['Viewer', 'playlists:write', 'playlists:uid:p1', false],
    ['Viewer', 'org.users:read', 'users:*', false],
    ['Editor', 'dashboards:write', dash('d-leaf'), true],
    ['Editor', 'dashboards:delete', dash('d-root'), true],
    ['Editor', 'dashboards:create', folder('leaf'), true],
    ['Editor', 'dashboards:create', folder(undefined), true],
    ['Editor', 'dashboards:read', dash('d-secret'), false],
    ['Editor', 'folders:create', folder(undefined), true],
    ['Editor', 'folders:create', folder('mid'), true],
    ['Editor', 'folders:create', folder('secret'), false],
    ['Editor', 'folders:delete', folder('leaf'), true],
    ['Editor', 'folders.permissions:write', folder('top'), false],
    ['Editor', 'datasources:explore', '', true],
    ['Editor', 'datasources:create', '', false],
    ['Editor', 'snapshots:create', '', true],
    ['Admin', 'dashboards:read', dash('d-secret'), true],
    ['Admin', 'dashboards:write', dash('d-secret'), true],
    ['Admin', 'folders:create', folder('secret'), true],
    ['Admin', 'folders.permissions:write', folder('top'), true],
    ['Admin', 'dashboards.permissions:write', dash('d-leaf'), true],
    ['Admin', 'datasources:delete', 'datasources:uid:prom', true],
    ['Admin', 'org.users:add', 'users:*', true],
    ['Admin', 'serviceaccounts:create', '', true],
    ['Admin', 'teams:write', 'teams:id:1', true],
    ['Admin', 'users:create', '', false],
    ['Admin', 'settings:read', 'settings:*', false],
    ['None', 'dashboards:read', dash('d-leaf'), false],
    ['None', 'folders:read', folder(undefined), false],
    ['None', 'orgs:read', '', false],
  ])('%s %s on %s → %s', async (role, action, scope, allowed) => {
    expect(await authz.can(subject(role), action, scope)).toBe(allowed);
  });
});

describe('Authorizer: managed permissions and inheritance', () => {
  it('inherits a user grant down three levels, not up or sideways', async () => {
    const { authz } = authorizer([{ resource: 'folders', uid: 'top', grantee: { kind: 'user', uid: 'u1' }, permission: 'Edit' }]);
    const u1 = subject('None', { uid: 'u1' });
    expect(await authz.can(u1, 'folders:write', folder('top'))).toBe(true);
    expect(await authz.can(u1, 'folders:write', folder('leaf'))).toBe(true);
    expect(await authz.can(u1, 'dashboards:write', dash('d-leaf'))).toBe(true);
    expect(await authz.can(u1, 'dashboards:create', folder('leaf'))).toBe(true);
    expect(await authz.can(u1, 'dashboards:read', dash('d-other'))).toBe(false);
    expect(await authz.can(u1, 'dashboards:read', dash('d-root'))).toBe(false);
    expect(await authz.can(u1, 'folders.permissions:write', folder('top'))).toBe(false);
  });

  it('grants a middle folder to what is below it only', async () => {
    const { authz } = authorizer([{ resource: 'folders', uid: 'mid', grantee: { kind: 'user', uid: 'u1' }, permission: 'View' }]);
    const u1 = subject('None', { uid: 'u1' });
    expect(await authz.can(u1, 'dashboards:read', dash('d-leaf'))).toBe(true);
    expect(await authz.can(u1, 'folders:read', folder('leaf'))).toBe(true);
    expect(await authz.can(u1, 'folders:read', folder('top'))).toBe(false);
    expect(await authz.can(u1, 'dashboards:read', dash('d-top'))).toBe(false);
  });

  it('gives team members what the team has', async () => {
    const { authz } = authorizer([{ resource: 'folders', uid: 'secret', grantee: { kind: 'team', uid: 'ops' }, permission: 'View' }]);
    expect(await authz.can(subject('Viewer', { teamUids: ['ops'] }), 'dashboards:read', dash('d-secret'))).toBe(true);
    expect(await authz.can(subject('Viewer', { teamUids: ['dev'] }), 'dashboards:read', dash('d-secret'))).toBe(false);
  });

  it('gives a role grant to that role and above', async () => {
    const { authz } = authorizer([{ resource: 'dashboards', uid: 'd-secret', grantee: { kind: 'role', role: 'Editor' }, permission: 'Edit' }]);
    expect(await authz.can(subject('Editor'), 'dashboards:write', dash('d-secret'))).toBe(true);
    expect(await authz.can(subject('Viewer'), 'dashboards:read', dash('d-secret'))).toBe(false);
  });

  it('gives a dashboard grant to that dashboard only', async () => {
    const { authz } = authorizer([{ resource: 'dashboards', uid: 'd-top', grantee: { kind: 'user', uid: 'u1' }, permission: 'Admin' }]);
    const u1 = subject('None', { uid: 'u1' });
    expect(await authz.can(u1, 'dashboards.permissions:write', dash('d-top'))).toBe(true);
    expect(await authz.can(u1, 'folders:read', folder('top'))).toBe(false);
    expect(await authz.can(u1, 'dashboards:read', dash('d-leaf'))).toBe(false);
  });
});

describe('Authorizer: custom roles (enterprise)', () => {
  const none = subject('None', { uid: 'u1', teamUids: ['ops'] });

  it.each<[string, Permission, string, string, boolean]>([
    ['uid wildcard', { action: 'dashboards:read', scope: 'dashboards:uid:*' }, 'dashboards:read', dash('d-secret'), true],
    ['kind wildcard', { action: 'dashboards:read', scope: 'dashboards:*' }, 'dashboards:read', dash('d-leaf'), true],
    ['global wildcard', { action: 'folders:read', scope: '*' }, 'folders:read', folder('secret'), true],
    ['folders:* for dashboards', { action: 'dashboards:read', scope: 'folders:*' }, 'dashboards:read', dash('d-root'), true],
    ['other action', { action: 'dashboards:read', scope: '*' }, 'dashboards:write', dash('d-leaf'), false],
    ['narrower than a list', { action: 'dashboards:read', scope: 'dashboards:uid:d-top' }, 'dashboards:read', 'dashboards:*', false],
  ])('%s', async (_name, granted, action, scope, allowed) => {
    const { authz } = authorizer([], { 'user:u1': [granted] });
    expect(await authz.can(none, action, scope)).toBe(allowed);
  });

  it('assigns through teams', async () => {
    const { authz } = authorizer([], { 'team:ops': [{ action: 'folders:read', scope: folder('secret') }] });
    expect(await authz.can(none, 'folders:read', folder('secret'))).toBe(true);
    expect(await authz.can(subject('None', { uid: 'u2' }), 'folders:read', folder('secret'))).toBe(false);
  });

  describe('folders:create (spec §5.6)', () => {
    it('on folders:uid:general creates root folders only', async () => {
      const { authz } = authorizer([], { 'user:u1': [{ action: 'folders:create', scope: folder(undefined) }] });
      expect(await authz.can(none, 'folders:create', folder(undefined))).toBe(true);
      expect(await authz.can(none, 'folders:create', folder('top'))).toBe(false);
      expect(await authz.can(none, 'folders:create', folder('leaf'))).toBe(false);
    });

    it('on a folder creates subfolders under it and its descendants, not at the root', async () => {
      const { authz } = authorizer([], { 'user:u1': [{ action: 'folders:create', scope: folder('top') }] });
      expect(await authz.can(none, 'folders:create', folder('top'))).toBe(true);
      expect(await authz.can(none, 'folders:create', folder('leaf'))).toBe(true);
      expect(await authz.can(none, 'folders:create', folder(undefined))).toBe(false);
      expect(await authz.can(none, 'folders:create', folder('other'))).toBe(false);
    });
  });
});

describe('Authorizer: server admin, org admin, service accounts', () => {
  const { authz } = authorizer([], {
    'service-account:sa1': [
      { action: 'users:create', scope: '' },
      { action: 'dashboards:read', scope: folder('secret') },
    ],
  });
  const serverAdmin = subject('Viewer', { uid: 'root', isServerAdmin: true });
  const orgAdmin = subject('Admin');
  const sa = subject('Admin', { kind: 'service-account', uid: 'sa1', isServerAdmin: true });

  it.each<[string, string, boolean, boolean, boolean]>([
    // action, scope, server admin (Viewer in this org), org admin, service account (Admin role)
    ['users:create', '', true, false, false],
    ['users.authtoken:read', 'global.users:id:5', true, false, false],
    ['users.permissions:write', 'global.users:id:5', true, false, false],
    ['orgs:create', '', true, false, false],
    ['settings:read', 'settings:*', true, false, false],
    ['settings:write', 'settings:auth.saml:enabled', true, false, false],
    ['settings:write', 'settings:server:http_port', false, false, false],
    ['server.stats:read', '', true, false, false],
    ['provisioning:reload', 'provisioners:dashboards', true, false, false],
    ['org.users:add', 'users:*', true, true, true],
    ['dashboards:write', dash('d-leaf'), false, true, true],
    ['dashboards:read', dash('d-leaf'), true, true, true],
  ])('%s on %s: server admin %s, org admin %s, service account %s', async (action, scope, sAdmin, oAdmin, svc) => {
    expect(await authz.can(serverAdmin, action, scope)).toBe(sAdmin);
    expect(await authz.can(orgAdmin, action, scope)).toBe(oAdmin);
    expect(await authz.can(sa, action, scope)).toBe(svc);
  });

  it('honours a service account custom role within its org', async () => {
    expect(await authz.can(subject('None', { kind: 'service-account', uid: 'sa1' }), 'dashboards:read', dash('d-secret'))).toBe(true);
  });

  it('gives anonymous callers their configured role, never server admin or custom roles', async () => {
    const anon = subject('Viewer', { kind: 'anonymous', uid: 'anonymous', isServerAdmin: true });
    expect(await authz.can(anon, 'dashboards:read', dash('d-leaf'))).toBe(true);
    expect(await authz.can(anon, 'users:create')).toBe(false);
  });
});

describe('Authorizer: filter and permissionsOf', () => {
  it('keeps the allowed candidates in order and looks each folder up once', async () => {
    const { authz, calls } = authorizer();
    const folders = [{ uid: 'secret' }, { uid: 'leaf' }, { uid: 'top' }, { uid: 'mid' }, { uid: 'leaf' }];
    const visible = await authz.filter(subject('Viewer'), 'folders:read', folders, (f) => folder(f.uid));
    expect(visible.map((f) => f.uid)).toEqual(['leaf', 'top', 'mid', 'leaf']);
    // leaf and mid are found through their ancestors: each folder is resolved once (secret, leaf, mid).
    expect(calls.ancestorsOf).toBe(3);
  });

  it('filters plain scopes', async () => {
    const { authz } = authorizer();
    const scopes = [dash('d-root'), dash('d-secret'), dash('d-leaf')];
    expect(await authz.filter(subject('Viewer'), 'dashboards:read', scopes)).toEqual([dash('d-root'), dash('d-leaf')]);
    expect(await authz.filter(subject('None'), 'dashboards:read', scopes)).toEqual([]);
    expect(await authz.filter(subject('Viewer'), 'dashboards:read', [])).toEqual([]);
  });

  it('without a scope, asks only for the action', async () => {
    const { authz } = authorizer();
    expect(await authz.can(subject('Viewer'), 'dashboards:read')).toBe(true);
    expect(await authz.can(subject('Viewer'), 'dashboards:write')).toBe(false);
  });

  it('lists what a subject holds', async () => {
    const { authz } = authorizer();
    const perms = await authz.permissionsOf(subject('Viewer'));
    expect(perms).toContainEqual({ action: 'folders:read', scope: folder(undefined) });
    expect(perms).toContainEqual({ action: 'dashboards:read', scope: folder('top') });
    expect(perms).not.toContainEqual({ action: 'dashboards:read', scope: folder('secret') });
  });

  it('works with no managed or role source', async () => {
    const authz = new Authorizer({ tree: treeWithCounts().tree });
    expect(await authz.can(subject('Admin'), 'dashboards:read', dash('d-secret'))).toBe(true);
    expect(await authz.can(subject('Viewer'), 'dashboards:read', dash('d-root'))).toBe(false);
  });
});

describe('error bodies', () => {
  it('renders the anchor RBAC 403 with a fresh id', () => {
    const body = accessDenied('dashboards:write');
    expect(body).toEqual({
      title: 'Access denied',
      message: "You'll need additional permissions to perform this action. Permissions needed: dashboards:write",
      accessErrorId: expect.stringMatching(/^ACE\d{10}$/),
    });
    expect(accessDenied('x').accessErrorId).not.toBe(body.accessErrorId);
  });

  it('renders the role 403', () => {
    expect(permissionDenied()).toEqual({ message: 'Permission denied' });
  });
});
