import { StatusError } from '../../pkg/errors';
import { type AclTarget, parseAclUpdate, toAclInfoDTO } from './permissions-conversions';

describe('parseAclUpdate', () => {
  it('reads role, user and team items with the anchor numbers', () => {
    expect(parseAclUpdate({ items: [{ role: 'Viewer', permission: 1 }, { userId: 3, permission: 4 }, { teamId: 2, permission: 2 }] })).toEqual([
      { role: 'Viewer', permission: 'View' },
      { userId: 3, permission: 'Admin' },
      { teamId: 2, permission: 'Edit' },
    ]);
    expect(parseAclUpdate({ items: [] })).toEqual([]);
    expect(parseAclUpdate({})).toEqual([]);
  });

  it.each<[unknown, string]>([
    [[], 'bad request data'],
    [{ items: 'x' }, 'bad request data'],
    [{ items: [{ role: 'Viewer', permission: 3 }] }, 'permission must be 1 (View), 2 (Edit) or 4 (Admin)'],
    [{ items: [{ userId: 1, teamId: 2, permission: 1 }] }, 'permission setting for user and team together is not allowed'],
    [{ items: [{ userId: 1, role: 'Editor', permission: 1 }] }, 'permission setting for role and (user or team) together is not allowed'],
    [{ items: [{ permission: 1 }] }, 'user id and team id cannot both be empty for a dashboard permission'],
    [{ items: [{ role: 'Owner', permission: 1 }] }, 'bad request data'],
    [{ items: [{ userId: '7', permission: 1 }] }, 'bad request data'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => parseAclUpdate(body)).toThrow(new StatusError(400, 'BadRequest', message));
  });
});

describe('toAclInfoDTO', () => {
  const folder: AclTarget = { isFolder: true, uid: 'f1', title: 'Team One', id: 7, created: '2026-01-01T00:00:00Z', updated: '2026-01-02T00:00:00Z' };
  const dash: AclTarget = { isFolder: false, uid: 'd1', title: 'CPU', id: 9, created: '2026-01-03T00:00:00Z', updated: '2026-01-03T00:00:00Z' };

  it('shows a role item of the object itself', () => {
    expect(toAclInfoDTO({ kind: 'role', role: 'Viewer' }, 'View', undefined, folder, folder)).toEqual({
      dashboardId: 0, folderId: 7, created: folder.created, updated: folder.updated,
      userId: 0, userUid: '', userLogin: '', userEmail: '', userAvatarUrl: '',
      teamId: 0, teamUid: '', team: '', teamEmail: '', teamAvatarUrl: '',
      role: 'Viewer', permission: 1, permissionName: 'View',
      uid: 'f1', title: 'Team One', slug: 'team-one', isFolder: true, url: '/dashboards/f/f1/team-one', inherited: false,
    });
  });

  it('shows a user item inherited from a folder on a dashboard', () => {
    const dto = toAclInfoDTO({ kind: 'user', uid: 'u1' }, 'Admin', { userId: 2, login: 'ana', email: 'ana@x' }, folder, dash);
    expect(dto).toMatchObject({ dashboardId: 9, userId: 2, userUid: 'u1', userLogin: 'ana', permission: 4, permissionName: 'Admin', uid: 'f1', inherited: true });
    expect(dto.userAvatarUrl).toMatch(/^\/avatar\/[0-9a-f]{32}$/);
    expect(dto).not.toHaveProperty('role');
  });

  it('shows a team item', () => {
    expect(toAclInfoDTO({ kind: 'team', uid: 't1' }, 'Edit', { teamId: 3, name: 'Ops', email: '' }, dash, dash)).toMatchObject({
      teamId: 3, teamUid: 't1', team: 'Ops', permission: 2, isFolder: false, url: '/d/d1/cpu', inherited: false,
    });
  });
});
