import { Authorizer } from './authorizer';
import { GrantIndex, granteeKeysOf, ManagedGrants } from './grants';
import { dashboardScope, defaultPermissionItems, type ManagedPermissionItem, type Subject } from './permissions';

const viewer: Subject = { kind: 'user', uid: 'u1', orgId: 1, orgRole: 'Viewer', isServerAdmin: false, teamUids: ['t1'] };

describe('GrantIndex', () => {
  it('answers exact scopes, wildcards, and "held anywhere"', () => {
    const idx = new GrantIndex([
      { action: 'dashboards:read', scope: 'dashboards:uid:a' },
      { action: 'folders:read', scope: 'folders:*' },
    ]);
    expect(idx.covers('dashboards:read', 'dashboards:uid:a')).toBe(true);
    expect(idx.covers('dashboards:read', 'dashboards:uid:b')).toBe(false);
    expect(idx.covers('folders:read', 'folders:uid:x')).toBe(true);
    expect(idx.holds('folders:read')).toBe(true);
    expect(idx.holds('folders:write')).toBe(false);
  });
});

describe('ManagedGrants', () => {
  it('keys a subject by its roles (and those below), itself and its teams', () => {
    expect(granteeKeysOf(viewer)).toEqual(['role:Viewer', 'user:u1', 'team:t1']);
    expect(granteeKeysOf({ ...viewer, orgRole: 'Admin', kind: 'service-account' })).toEqual(['role:Viewer', 'role:Editor', 'role:Admin', 'service-account:u1']);
  });

  it('replaces and removes one object\'s items without touching the others', () => {
    const grants = ManagedGrants.of([
      ...defaultPermissionItems('folders', 'f1', undefined, { kind: 'user', uid: 'u9' }),
      ...defaultPermissionItems('folders', 'f2', undefined, undefined),
    ]);
    expect(grants.levelOf(['role:Viewer'], 'folders:uid:f1')).toBe('View');
    expect(grants.levelOf(['user:u9', 'role:Viewer'], 'folders:uid:f1')).toBe('Admin');
    grants.set('folders:uid:f1', [{ resource: 'folders', uid: 'f1', grantee: { kind: 'team', uid: 't1' }, permission: 'Edit' }]);
    expect(grants.levelOf(['role:Viewer'], 'folders:uid:f1')).toBeUndefined();
    expect(grants.levelOf(['team:t1'], 'folders:uid:f1')).toBe('Edit');
    expect(grants.levelOf(['role:Viewer'], 'folders:uid:f2')).toBe('View');
    grants.set('folders:uid:f1', []);
    expect([...grants.items()].map((i) => i.uid)).toEqual(['f2', 'f2']);
    expect(grants.holds(['team:t1'], 'dashboards:read')).toBe(false);
    expect(grants.holds(['role:Viewer'], 'dashboards:read')).toBe(true);
  });

  it('filters 100k dashboards against 200k items (its speed is hack/bench\'s to measure, not a timed test)', async () => {
    const items: ManagedPermissionItem[] = [];
    const uids = Array.from({ length: 100_000 }, (_, i) => `d${i}`);
    for (const uid of uids) items.push(...defaultPermissionItems('dashboards', uid, uid.endsWith('7') ? 'hidden' : undefined, undefined));
    const grants = ManagedGrants.of(items);
    const authz = new Authorizer({ tree: { ancestorsOf: async () => [], folderOf: async () => undefined }, managed: { grantsFor: async () => grants } });
    const visible = await authz.filter(viewer, 'dashboards:read', uids, (uid) => ({ scope: dashboardScope(uid), folder: uid.endsWith('7') ? 'hidden' : '' }));
    expect(visible).toHaveLength(90_000);
    expect(visible.every((uid) => !uid.endsWith('7'))).toBe(true);
  });
});
