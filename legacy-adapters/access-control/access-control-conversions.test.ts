import type { StoredRole } from '../../pkg/auth/authorization/role-directory';
import { fromRoleAssignmentsDTO, fromRoleDTO, parseRoleAssignments, parseRoleForm, scopesByAction, toRoleAssignmentsDTO, toRoleDTO } from './access-control-conversions';

const role: StoredRole = {
  uid: 'r1', orgId: 1, name: 'custom:reader', displayName: 'Reader', description: 'reads', group: 'Custom', hidden: false, version: 3,
  permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }], created: '2026-01-02T03:04:05Z', updated: '2026-01-03T03:04:05Z',
};

describe('access-control conversions', () => {
  it('round-trips a role through RoleDTO', () => {
    const dto = toRoleDTO(role);
    expect(dto).toEqual({
      version: 3, uid: 'r1', name: 'custom:reader', displayName: 'Reader', description: 'reads', group: 'Custom', hidden: false,
      permissions: [{ action: 'dashboards:read', scope: 'dashboards:*', created: '2026-01-03T03:04:05Z', updated: '2026-01-03T03:04:05Z' }],
      created: '2026-01-02T03:04:05Z', updated: '2026-01-03T03:04:05Z',
    });
    const { uid, fields } = fromRoleDTO(dto);
    expect({ uid, ...fields }).toEqual({ uid: 'r1', name: 'custom:reader', displayName: 'Reader', description: 'reads', group: 'Custom', hidden: false, permissions: role.permissions });
  });

  it('parses role forms and names what is wrong', () => {
    expect(parseRoleForm({ name: ' custom:x ', uid: 'u1', permissions: [{ action: 'teams:create' }] })).toEqual({ uid: 'u1', fields: { name: 'custom:x', permissions: [{ action: 'teams:create', scope: '' }] } });
    expect(parseRoleForm({ permissions: [] })).toBe('Role name is required');
    expect(parseRoleForm({ name: 'x', permissions: [{ scope: 'a' }] })).toBe('bad request data');
    expect(parseRoleForm({ name: 'x', permissions: 'all' })).toBe('bad request data');
    expect(parseRoleForm({ name: 'x', hidden: 'no' })).toBe('bad request data');
    expect(parseRoleForm({ name: 'x', global: true })).toMatch(/global roles are not supported/);
  });

  it('groups scopes by action without repeats', () => {
    expect(scopesByAction([
      { action: 'a', scope: 's1' }, { action: 'a', scope: 's1' }, { action: 'a', scope: 's2' }, { action: 'b', scope: '' },
    ])).toEqual({ a: ['s1', 's2'], b: [''] });
  });

  it('round-trips role assignments through RoleAssignmentsDTO', () => {
    const dto = toRoleAssignmentsDTO('r1', [
      { kind: 'team', uid: 't', id: 2 }, { kind: 'user', uid: 'u9', id: 9 }, { kind: 'user', uid: 'u3', id: 3 }, { kind: 'service-account', uid: 's', id: 5 },
    ]);
    expect(dto).toEqual({ role_uid: 'r1', users: [3, 9], teams: [2], service_accounts: [5] });
    expect(fromRoleAssignmentsDTO(dto)).toEqual({ user: [3, 9], team: [2], 'service-account': [5] });
  });

  it('parses SetRoleAssignmentsCommand ids', () => {
    expect(parseRoleAssignments({ users: [3, 3], teams: [1] })).toEqual({ user: [3], team: [1], 'service-account': [] });
    expect(parseRoleAssignments({ users: ['3'] })).toBeUndefined();
    expect(parseRoleAssignments({ teams: [0] })).toBeUndefined();
    expect(parseRoleAssignments({ service_accounts: 4 })).toBeUndefined();
  });
});
