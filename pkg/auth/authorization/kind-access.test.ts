/**
 * A kind gets its basic roles, its managed permission levels and its default grants by declaring them
 * (`access` of its registration): here a test-only kind, declared nowhere else, next to the served ones.
 */
import { z } from 'zod';
import { allKinds, playlistKind, serviceAccountKind, teamKind } from '../../../apis';
import { CREATOR_ADMIN_ROLES_AT_ROOT, type KindRegistration } from '../../meta';
import { BASIC_ROLE_PERMISSIONS } from './basic-roles';
import { KindAccessRules, KIND_ACCESS } from './kind-access';

/** A library-element-like kind: lives in folders, has managed permissions, Editors create at the root. */
const widgetKind: KindRegistration = {
  group: 'widget.svc.app',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  specSchema: z.looseObject({}),
  deleteResponse: 'status',
  inFolder: true,
  access: {
    resource: 'widgets',
    roles: { Editor: [{ verbs: ['create'], on: 'root' }], Admin: [{ verbs: ['read', 'write', 'delete', 'permissions:read'], on: 'all' }] },
    managed: {
      levels: { View: ['widgets:read'], Edit: ['widgets:read', 'widgets:write'], Admin: ['widgets:read', 'widgets:write', 'widgets.permissions:read'] },
      defaults: CREATOR_ADMIN_ROLES_AT_ROOT,
    },
  },
};

const rules = KindAccessRules.of([...allKinds, widgetKind]);
const has = (role: keyof typeof BASIC_ROLE_PERMISSIONS, action: string, scope: string) => BASIC_ROLE_PERMISSIONS[role].some((p) => p.action === action && p.scope === scope);
const grantSet = (role: 'Viewer' | 'Editor' | 'Admin') => rules.grantsOf(role).map(([action, scope]) => `${action} ${scope}`);

describe('access declared by the kind', () => {
  it('gives the basic roles what the kind declares, on its objects and through its folders', () => {
    expect(grantSet('Viewer').filter((g) => g.startsWith('widgets'))).toEqual([]);
    expect(grantSet('Editor').filter((g) => g.startsWith('widgets'))).toEqual(['widgets:create folders:uid:general']);
    expect(grantSet('Admin').filter((g) => g.startsWith('widgets'))).toEqual([
      'widgets:read widgets:*',
      'widgets:read folders:*',
      'widgets:write widgets:*',
      'widgets:write folders:*',
      'widgets:delete widgets:*',
      'widgets:delete folders:*',
      'widgets.permissions:read widgets:*',
      'widgets.permissions:read folders:*',
    ]);
  });

  it('manages its permissions with its levels, which a folder level carries to the widgets below it', () => {
    expect(rules.isManaged('widgets')).toBe(true);
    expect(rules.groupOf('widgets')).toBe('widget.svc.app');
    expect(rules.levelActions('widgets', 'Edit')).toEqual(['widgets:read', 'widgets:write']);
    expect(rules.levelGrants('folders', 'View', 'widgets:read')).toBe(true);
    expect(rules.levelGrants('folders', 'View', 'widgets:write')).toBe(false);
    expect(rules.levelGrants('folders', 'Edit', 'widgets:write')).toBe(true);
    expect(rules.levelGrants('folders', 'Edit', 'dashboards:write')).toBe(true);
    // Without the declaration the same kind has no managed permissions.
    expect(KindAccessRules.of(allKinds).isManaged('widgets')).toBe(false);
  });

  it('starts a new object with its declared grants: creator Admin, and at the root Editor Edit and Viewer View', () => {
    expect(rules.defaultsOf('widgets', true)).toEqual([
      { grantee: { kind: 'creator' }, permission: 'Admin' },
      { grantee: { kind: 'role', role: 'Editor' }, permission: 'Edit' },
      { grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' },
    ]);
    expect(rules.defaultsOf('widgets', false)).toEqual([{ grantee: { kind: 'creator' }, permission: 'Admin' }]);
    expect(rules.defaultsOf('playlists', true)).toEqual([]);
  });

  it('builds the served basic roles from the served kinds: playlists only from their declaration', () => {
    expect(playlistKind.access.roles).toBeDefined();
    expect(has('Viewer', 'playlists:read', 'playlists:*')).toBe(true);
    expect(has('Viewer', 'playlists:write', 'playlists:*')).toBe(false);
    expect(['playlists:create ', 'playlists:write playlists:*', 'playlists:delete playlists:*'].every((g) => KIND_ACCESS.grantsOf('Editor').some(([a, s]) => `${a} ${s}` === g))).toBe(true);
    expect(has('Editor', 'playlists:create', '')).toBe(true);
    expect(KIND_ACCESS.isManaged('playlists')).toBe(false);
    expect(KIND_ACCESS.isManaged('folders') && KIND_ACCESS.isManaged('dashboards')).toBe(true);
  });

  it('reads the kinds of every registry: teams and service accounts (identity kinds) give Admins their roles by declaring them', () => {
    expect(teamKind.access.resource).toBe('teams');
    expect(serviceAccountKind.access.resource).toBe('serviceaccounts');
    for (const resource of ['teams', 'serviceaccounts']) {
      expect(has('Admin', `${resource}:create`, '')).toBe(true);
      for (const verb of [':read', ':write', ':delete', '.permissions:read', '.permissions:write']) expect(has('Admin', `${resource}${verb}`, `${resource}:*`)).toBe(true);
      expect(BASIC_ROLE_PERMISSIONS.Editor.some((p) => p.action.startsWith(`${resource}:`) || p.action.startsWith(`${resource}.`))).toBe(false);
      // Served kinds alone do not give them: the grants come from the identity kinds' declarations.
      expect(KindAccessRules.of(allKinds).grantsOf('Admin').some(([action]) => action.startsWith(resource))).toBe(false);
    }
  });
});
