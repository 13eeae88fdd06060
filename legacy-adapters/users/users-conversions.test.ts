import type { StoredUser } from '../../pkg/auth/identity-directory';
import {
  fromAdminCreateUserForm, fromUserOrgDTO, fromUserProfileDTO, toAdminCreateUserForm, toAnonymousProfileDTO, toUserOrgDTO, toUserProfileDTO,
} from './users-conversions';

const user: StoredUser = {
  id: 7,
  uid: '0b8f6c9e-4a43-4c38-9d8e-2a52e8b7c001',
  login: 'ana',
  email: 'ana@example.com',
  name: 'Ana',
  isSvcAdmin: false,
  isDisabled: false,
  orgId: 2,
  created: '2026-01-02T03:04:05Z',
  updated: '2026-01-03T03:04:05Z',
};

describe('users conversions', () => {
  it('round-trips a user through its profile DTO, with the server-admin flag named isSvcAdmin', () => {
    const dto = toUserProfileDTO(user, user.orgId);
    expect(dto).toMatchObject({ id: 7, login: 'ana', isSvcAdmin: false, orgId: 2 });
    expect(dto).not.toHaveProperty('isGrafanaAdmin');
    expect(dto.avatarUrl).toMatch(/^\/avatar\/[0-9a-f]{32}$/);
    expect(fromUserProfileDTO(dto)).toEqual(user);
  });

  it('round-trips a membership through UserOrgDTO', () => {
    const m = { org: { id: 2, name: 'Ops' }, role: 'Editor' as const };
    expect(toUserOrgDTO(m)).toEqual({ orgId: 2, name: 'Ops', role: 'Editor' });
    expect(fromUserOrgDTO(toUserOrgDTO(m))).toEqual(m);
  });

  it('round-trips the admin create form', () => {
    const form = { login: 'bo', email: 'bo@example.com', name: 'Bo', password: 'secret', orgId: 1 };
    expect(toAdminCreateUserForm(fromAdminCreateUserForm(form))).toEqual(form);
    expect(fromAdminCreateUserForm({ login: 'x', password: 'pw12' }).orgId).toBe(1);
  });
});

describe('anonymous profile', () => {
  it('profiles an anonymous visitor without a stored user', () => {
    expect(toAnonymousProfileDTO({ identity: 'anonymous:1', orgId: 1 })).toMatchObject({ id: 0, uid: 'anonymous:1', login: '', orgId: 1, isSvcAdmin: false });
  });
});
