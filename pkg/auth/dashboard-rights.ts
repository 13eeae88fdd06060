import type { AccessCheck } from '../registry';
import { subjectKindOf } from './access-control';
import { dashboardScope } from './permissions';

/** What a caller may do with one dashboard: the `meta` of the legacy read and the `access` of `/apis .../dto`. */
export interface DashboardRights {
  canSave: boolean;
  canEdit: boolean;
  canAdmin: boolean;
  canStar: boolean;
  canDelete: boolean;
}

/**
 * The caller's rights on dashboard `uid`, as its access checks answer: save and edit with `dashboards:write`,
 * admin with `dashboards.permissions:write`, delete with `dashboards:delete`; anyone signed in may star it.
 *
 * @example
 *   await dashboardRights(req.access, req.user!.identity, 'abc');
 *   // a Viewer of a root dashboard: { canSave: false, canEdit: false, canAdmin: false, canDelete: false, canStar: true }
 */
export async function dashboardRights(access: AccessCheck | undefined, identity: string, uid: string): Promise<DashboardRights> {
  const can = (action: string) => access?.can(action, dashboardScope(uid)) ?? Promise.resolve(false);
  const [canSave, canAdmin, canDelete] = await Promise.all([can('dashboards:write'), can('dashboards.permissions:write'), can('dashboards:delete')]);
  return { canSave, canEdit: canSave, canAdmin, canDelete, canStar: subjectKindOf(identity) !== 'anonymous' };
}
