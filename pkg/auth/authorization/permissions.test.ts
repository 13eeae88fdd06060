import { BASIC_ROLE_PERMISSIONS, SERVER_ADMIN_ONLY_ACTIONS, SERVER_ADMIN_PERMISSIONS } from './basic-roles';
import {
  actionsFor,
  dashboardScope,
  defaultPermissionItems,
  folderScope,
  managedPermissions,
  roleIncludes,
  scopeCovers,
  type ManagedPermissionItem,
  type Subject,
} from './permissions';

const user = (over: Partial<Subject> = {}): Subject => ({
  kind: 'user',
  uid: 'u1',
  orgId: 1,
  orgRole: 'None',
  isServerAdmin: false,
  teamUids: [],
  ...over,
});

describe('scopeCovers', () => {
  it.each<[string, string, boolean]>([
    ['dashboards:uid:abc', 'dashboards:uid:abc', true],
    ['dashboards:uid:abc', 'dashboards:uid:abcd', false],
    ['dashboards:uid:*', 'dashboards:uid:abc', true],
    ['dashboards:*', 'dashboards:uid:abc', true],
    ['*', 'dashboards:uid:abc', true],
    ['*', 'folders:uid:general', true],
    ['folders:uid:*', 'dashboards:uid:abc', false],
    ['folders:*', 'folders:uid:f1', true],
    ['dashboards:uid:ab*', 'dashboards:uid:abc', true], // the anchor's plain prefix rule
    // a requested wildcard needs a grant at least as wide
    ['dashboards:*', 'dashboards:uid:*', true],
    ['dashboards:uid:*', 'dashboards:*', false],
    ['dashboards:uid:abc', 'dashboards:uid:*', false],
    // invalid grants cover nothing
    ['dashboards:*:abc', 'dashboards:x:abc', false],
    ['dash?oards:uid:abc', 'dash?oards:uid:abc', false],
    ['', '', false],
    ['', 'dashboards:uid:abc', false],
  ])('%s covers %s: %s', (granted, requested, expected) => {
    expect(scopeCovers(granted, requested)).toBe(expected);
  });
});

describe('scopes', () => {
  it('names dashboards and folders, the root being general', () => {
    expect(dashboardScope('d1')).toBe('dashboards:uid:d1');
    expect(folderScope('f1')).toBe('folders:uid:f1');
    expect(folderScope(undefined)).toBe('folders:uid:general');
    expect(folderScope('')).toBe('folders:uid:general');
  });
});

describe('roleIncludes', () => {
  it.each<[Subject['orgRole'], Subject['orgRole'], boolean]>([
    ['Admin', 'Viewer', true],
    ['Admin', 'Editor', true],
    ['Editor', 'Viewer', true],
    ['Editor', 'Admin', false],
    ['Viewer', 'Editor', false],
    ['Viewer', 'None', false],
    ['None', 'None', true],
    ['None', 'Viewer', false],
  ])('%s gets grants for %s: %s', (role, granted, expected) => {
    expect(roleIncludes(role, granted)).toBe(expected);
  });
});

describe('actionsFor', () => {
  it('grows View ⊂ Edit ⊂ Admin, with dashboard actions on folders', () => {
    // The dashboard's annotations come with it (the anchor's annotationPermissionUpdate).
    expect(actionsFor('dashboards', 'View')).toEqual(['dashboards:read', 'annotations:read']);
    expect(actionsFor('dashboards', 'Edit')).toEqual(['dashboards:read', 'dashboards:write', 'dashboards:delete', 'annotations:read', 'annotations:write', 'annotations:create', 'annotations:delete']);
    expect(actionsFor('dashboards', 'Admin')).toContain('dashboards.permissions:write');
    expect(actionsFor('folders', 'View')).toEqual(expect.arrayContaining(['folders:read', 'dashboards:read']));
    expect(actionsFor('folders', 'View')).not.toContain('folders:write');
    expect(actionsFor('folders', 'Edit')).toEqual(
      expect.arrayContaining(['folders:write', 'folders:delete', 'folders:create', 'dashboards:create', 'dashboards:write']),
    );
    expect(actionsFor('folders', 'Edit')).not.toContain('folders.permissions:write');
    expect(actionsFor('folders', 'Admin')).toEqual(
      expect.arrayContaining(['folders.permissions:read', 'folders.permissions:write', 'dashboards.permissions:write']),
    );
  });
});

describe('managedPermissions', () => {
  const items: ManagedPermissionItem[] = [
    { resource: 'folders', uid: 'f-user', grantee: { kind: 'user', uid: 'u1' }, permission: 'Edit' },
    { resource: 'folders', uid: 'f-team', grantee: { kind: 'team', uid: 'ops' }, permission: 'View' },
    { resource: 'dashboards', uid: 'd-role', grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' },
    { resource: 'dashboards', uid: 'd-editors', grantee: { kind: 'role', role: 'Editor' }, permission: 'Admin' },
    { resource: 'dashboards', uid: 'd-sa', grantee: { kind: 'service-account', uid: 'u1' }, permission: 'View' },
  ];
  const scopesOf = (s: Subject) => [...new Set(managedPermissions(items, s).map((p) => p.scope))].sort();

  it('gives a user its own items', () => {
    const perms = managedPermissions(items, user());
    expect(perms).toContainEqual({ action: 'folders:write', scope: 'folders:uid:f-user' });
    expect(perms).toContainEqual({ action: 'dashboards:write', scope: 'folders:uid:f-user' });
    expect(scopesOf(user())).toEqual(['folders:uid:f-user']);
  });

  it('gives team members the team items', () => {
    expect(scopesOf(user({ teamUids: ['ops'] }))).toEqual(['folders:uid:f-team', 'folders:uid:f-user']);
    const perms = managedPermissions(items, user({ uid: 'u2', teamUids: ['ops'] }));
    expect(perms).toEqual([
      { action: 'dashboards:read', scope: 'folders:uid:f-team' },
      { action: 'annotations:read', scope: 'folders:uid:f-team' },
      { action: 'folders:read', scope: 'folders:uid:f-team' },
      { action: 'library.panels:read', scope: 'folders:uid:f-team' },
    ]);
  });

  it('gives role items to that role and the roles above it', () => {
    expect(scopesOf(user({ uid: 'x', orgRole: 'Viewer' }))).toEqual(['dashboards:uid:d-role']);
    expect(scopesOf(user({ uid: 'x', orgRole: 'Editor' }))).toEqual(['dashboards:uid:d-editors', 'dashboards:uid:d-role']);
    expect(scopesOf(user({ uid: 'x', orgRole: 'Admin' }))).toEqual(['dashboards:uid:d-editors', 'dashboards:uid:d-role']);
    expect(scopesOf(user({ uid: 'x', orgRole: 'None' }))).toEqual([]);
  });

  it('does not mix users and service accounts with the same uid, nor give teams to service accounts', () => {
    expect(scopesOf(user({ kind: 'service-account', teamUids: ['ops'] }))).toEqual(['dashboards:uid:d-sa']);
  });
});

describe('defaultPermissionItems', () => {
  it('gives a root folder to its creator (Admin), Editors (Edit) and Viewers (View)', () => {
    expect(defaultPermissionItems('folders', 'f1', undefined, { kind: 'user', uid: 'u1' })).toEqual([
      { resource: 'folders', uid: 'f1', grantee: { kind: 'user', uid: 'u1' }, permission: 'Admin' },
      { resource: 'folders', uid: 'f1', grantee: { kind: 'role', role: 'Editor' }, permission: 'Edit' },
      { resource: 'folders', uid: 'f1', grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' },
    ]);
  });

  it('gives a nested one only to its creator: the rest is inherited', () => {
    expect(defaultPermissionItems('dashboards', 'd1', 'f1', { kind: 'service-account', uid: 'sa1' })).toEqual([
      { resource: 'dashboards', uid: 'd1', grantee: { kind: 'service-account', uid: 'sa1' }, permission: 'Admin' },
    ]);
    expect(defaultPermissionItems('dashboards', 'd1', 'f1', undefined)).toEqual([]);
  });
});

describe('basic role tables', () => {
  const has = (role: keyof typeof BASIC_ROLE_PERMISSIONS, action: string, scope: string) =>
    BASIC_ROLE_PERMISSIONS[role].some((p) => p.action === action && p.scope === scope);

  it('inherit Viewer ⊂ Editor ⊂ Admin', () => {
    for (const p of BASIC_ROLE_PERMISSIONS.Viewer) expect(BASIC_ROLE_PERMISSIONS.Editor).toContainEqual(p);
    for (const p of BASIC_ROLE_PERMISSIONS.Editor) expect(BASIC_ROLE_PERMISSIONS.Admin).toContainEqual(p);
    expect(BASIC_ROLE_PERMISSIONS.None).toEqual([]);
  });

  it('give Viewer and Editor nothing on all dashboards: that comes from managed permissions', () => {
    expect(has('Viewer', 'dashboards:read', 'dashboards:*')).toBe(false);
    expect(has('Editor', 'dashboards:write', 'dashboards:*')).toBe(false);
    expect(has('Admin', 'dashboards:read', 'dashboards:*')).toBe(true);
    expect(has('Editor', 'folders:create', 'folders:uid:general')).toBe(true);
    expect(has('Viewer', 'folders:read', 'folders:uid:general')).toBe(true);
  });

  it('keep global actions for the server admin', () => {
    expect([...SERVER_ADMIN_ONLY_ACTIONS]).toEqual(
      expect.arrayContaining(['users:create', 'users:delete', 'orgs:create', 'settings:read', 'server.stats:read']),
    );
    for (const action of ['org.users:read', 'orgs:read', 'orgs:write']) expect(SERVER_ADMIN_ONLY_ACTIONS.has(action)).toBe(false);
    expect(SERVER_ADMIN_PERMISSIONS).toContainEqual({ action: 'provisioning:reload', scope: 'provisioners:*' });
  });
});
