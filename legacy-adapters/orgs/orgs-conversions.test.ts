import type { StoredUser } from '../../pkg/auth/identity-directory';
import { fromOrgDTO, fromOrgUserDTO, parseRole, toOrgDTO, toOrgUserDTO } from './orgs-conversions';

const user: StoredUser = {
  id: 3, uid: 'u-3', login: 'cy', email: 'cy@example.com', name: 'Cy', isSvcAdmin: false, isDisabled: false, orgId: 1,
  created: '2026-01-02T03:04:05Z', updated: '2026-01-02T03:04:05Z',
};

describe('orgs conversions', () => {
  it('round-trips an org through OrgDTO', () => {
    expect(fromOrgDTO(toOrgDTO({ id: 2, name: 'Ops' }))).toEqual({ id: 2, name: 'Ops' });
  });

  it('round-trips a membership through OrgUserDTO', () => {
    const dto = toOrgUserDTO(4, user, 'Admin');
    expect(dto).toMatchObject({ orgId: 4, userId: 3, login: 'cy', email: 'cy@example.com', role: 'Admin' });
    expect(fromOrgUserDTO(dto)).toEqual({ orgId: 4, userId: 3, role: 'Admin' });
  });

  it('accepts only the four org roles', () => {
    expect(parseRole('Editor')).toBe('Editor');
    expect(parseRole('None')).toBe('None');
    expect(parseRole('editor')).toBeUndefined();
    expect(parseRole(1)).toBeUndefined();
  });
});
