import { csvField, toCsv, toRecord } from './licensing-conversions';

const dashboard = { id: 3, uid: 'd1', title: 'Sales, EMEA', isFolder: false, orgId: 1 };

describe('licensing conversions', () => {
  it('a record names the object, its page and the grantee\'s page', () => {
    expect(toRecord(dashboard, { type: 'user', name: 'ana', uid: 'u1' }, 'Edit', 'Viewer', 1)).toEqual({
      id: 3, uid: 'd1', title: 'Sales, EMEA', slug: 'sales-emea', url: '/d/d1/sales-emea', isFolder: false, orgId: 1,
      granteeName: 'ana', granteeType: 'user', granteeUrl: '/admin/users/edit/u1', customPermissions: 'Edit', orgRole: 'Viewer', usersCount: 1,
    });
    expect(toRecord({ ...dashboard, isFolder: true }, { type: 'team', name: 'Ops', uid: 't1' }, 'Admin', 'Viewer', 2)).toMatchObject({ url: '/dashboards/f/d1/sales-emea', granteeUrl: '/org/teams/edit/t1' });
    expect(toRecord(dashboard, { type: 'role', name: 'Viewer' }, 'Edit', 'Viewer', 5).granteeUrl).toBe('');
  });

  it('quotes CSV fields that need it and defuses formulas', () => {
    expect([csvField('plain'), csvField('a,b'), csvField('say "hi"'), csvField('=1+1'), csvField(-3), csvField(true)]).toEqual(['plain', '"a,b"', '"say ""hi"""', "'=1+1", '-3', 'true']);
  });

  it('the CSV has the DTO\'s fields as header, one CRLF line per record', () => {
    const csv = toCsv([toRecord(dashboard, { type: 'user', name: 'ana', uid: 'u1' }, 'Edit', 'Viewer', 1)]);
    expect(csv.split('\r\n')).toEqual([
      'id,uid,title,slug,url,isFolder,orgId,granteeName,granteeType,granteeUrl,customPermissions,orgRole,usersCount',
      '3,d1,"Sales, EMEA",sales-emea,/d/d1/sales-emea,false,1,ana,user,/admin/users/edit/u1,Edit,Viewer,1',
      '',
    ]);
  });
});
