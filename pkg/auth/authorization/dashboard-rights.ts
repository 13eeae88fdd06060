import { dashboardRightsOf, type DashboardRights } from '../../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-rights';
import type { AccessCheck } from '../../registry';
import { subjectKindOf } from './access-control';

export type { DashboardRights };

/**
 * The caller's rights on dashboard `uid` (the dashboard kind's rule, `dashboardRightsOf`), from its access checks.
 *
 * @example
 *   await dashboardRights(req.access, req.user!.identity, 'abc');
 *   // a Viewer of a root dashboard: { canSave: false, canEdit: false, canAdmin: false, canDelete: false, canStar: true }
 */
export function dashboardRights(access: AccessCheck | undefined, identity: string, uid: string): Promise<DashboardRights> {
  return dashboardRightsOf((action, scope) => access?.can(action, scope) ?? Promise.resolve(false), subjectKindOf(identity) !== 'anonymous', uid);
}
