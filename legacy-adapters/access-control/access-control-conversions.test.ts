import type { StoredRole } from '../../pkg/auth/role-directory';
import { fromRoleDTO, parseRoleForm, scopesByAction, toRoleDTO } from './access-control-conversions';

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
});
