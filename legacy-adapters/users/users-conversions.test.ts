import type { StoredUser } from '../../pkg/auth/identity/identity-directory';
import {
  ageString, fromAdminCreateUserForm, fromUserOrgDTO, fromUserProfileDTO, fromUserSearchQuery, neverSeen, parseUpdateUserCommand, toAdminCreateUserForm,
  toAnonymousProfileDTO, toUserOrgDTO, toUserProfileDTO, toUserSearchHitDTO,
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

describe('user search conversions', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');

  it('words ages as the anchor does, in the largest whole unit', () => {
    const ago = (ms: number) => ageString(new Date(now - ms).toISOString(), now);
    expect([ago(30_000), ago(60_000), ago(5 * 60_000), ago(3_600_000), ago(2 * 86_400_000), ago(40 * 86_400_000), ago(366 * 86_400_000)]).toEqual([
      '< 1 minute', '1 minute', '5 minutes', '1 hour', '2 days', '1 month', '1 year',
    ]);
  });

  it('shows a user as a search hit; never seen is ten years before creation', () => {
    expect(neverSeen('2026-01-02T03:04:05Z')).toBe('2016-01-02T03:04:05Z');
    expect(toUserSearchHitDTO(user, undefined, now)).toEqual({
      id: 7, uid: user.uid, name: 'Ana', login: 'ana', email: 'ana@example.com', avatarUrl: expect.stringMatching(/^\/avatar\//), isAdmin: false,
      isDisabled: false, lastSeenAt: '2016-01-02T03:04:05Z', lastSeenAtAge: '10 years', authLabels: [],
    });
    expect(toUserSearchHitDTO(user, '2026-11-22T11:58:30.500Z', now)).toMatchObject({ lastSeenAt: '2026-11-22T11:58:30Z', lastSeenAtAge: '1 minute' });
  });

  it('binds the query string', () => {
    expect(fromUserSearchQuery({ perpage: '2', page: '3', query: ' An ' })).toEqual({ query: 'An', page: 3, perPage: 2 });
    expect(fromUserSearchQuery({ perpage: '0', page: 'x' })).toEqual({ query: '', page: 1, perPage: 1000 });
  });

  it('profiles an anonymous visitor without a stored user', () => {
    expect(toAnonymousProfileDTO({ identity: 'anonymous:1', orgId: 1 })).toMatchObject({ id: 0, uid: 'anonymous:1', login: '', orgId: 1, isSvcAdmin: false });
  });
});

describe('UpdateUserCommand', () => {
  it('trims, lets a blank login take the email and keeps blank fields', () => {
    expect(parseUpdateUserCommand({ login: ' ana ', email: 'a@x.org', name: 'Ana', theme: 'dark' })).toEqual({ login: 'ana', email: 'a@x.org', name: 'Ana' });
    expect(parseUpdateUserCommand({ email: ' a@x.org ' })).toEqual({ login: 'a@x.org', email: 'a@x.org' });
    expect(() => parseUpdateUserCommand({ name: 'x' })).toThrow('Validation error, need to specify either username or email');
    for (const bad of [null, [], 'x', { login: 1 }, { theme: false }]) expect(() => parseUpdateUserCommand(bad)).toThrow('bad request data');
  });
});
