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
 *   await dashboardRightsOf((action, scope) => access.can(action, scope), true, 'abc');
 *   // a Viewer of a root dashboard: { canSave: false, canEdit: false, canAdmin: false, canDelete: false, canStar: true }
 */
export async function dashboardRightsOf(can: (action: string, scope: string) => Promise<boolean>, signedIn: boolean, uid: string): Promise<DashboardRights> {
  const scope = `dashboards:uid:${uid}`;
  const [canSave, canAdmin, canDelete] = await Promise.all([can('dashboards:write', scope), can('dashboards.permissions:write', scope), can('dashboards:delete', scope)]);
  return { canSave, canEdit: canSave, canAdmin, canDelete, canStar: signedIn };
}
