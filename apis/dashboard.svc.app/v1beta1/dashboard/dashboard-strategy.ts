import { StatusError } from '../../../../pkg/errors';
import { extend, isProvisioned, type KindStrategy, ProvisioningAnnotations, type Resource } from '../../../../pkg/meta';
import type { DashboardSpec } from './dashboard-schema';
import { raisedRefresh } from './dashboard-refresh';
import { LibraryPanelMessages, libraryPanelsWithoutUid } from '../librarypanel';

/** The setting (from `dashboards.min_refresh_interval`) naming the shortest refresh a dashboard may keep. */
export const MIN_REFRESH_INTERVAL = 'minRefreshInterval';

/**
 * `spec.uid`, `spec.version` and `spec.id` mirror metadata (name, generation, legacy id label): they are never
 * stored, so sending them back unchanged, or not at all, is not a change of the spec.
 */
function dropMirrors(obj: Resource<DashboardSpec>): void {
  if (obj.spec && typeof obj.spec === 'object') {
    delete obj.spec.uid;
    delete obj.spec.version;
    delete obj.spec.id;
  }
}

/** The anchor's answers to a change of a dashboard that provisioning files hold (anchor-breadth §9.3). */
export const ProvisionedDashboardMessages = {
  save: 'Cannot save provisioned dashboard',
  delete: 'provisioned dashboard cannot be deleted',
} as const;

export const dashboardStrategy: KindStrategy<DashboardSpec> = {
  prepareForCreate: dropMirrors,
  prepareForUpdate: dropMirrors,
  // A panel naming a library panel must name it by uid (its connections are derived from it).
  validate: (obj) => libraryPanelsWithoutUid(obj.spec).map((field) => ({ field, reason: 'FieldValueRequired', message: LibraryPanelMessages.missingUid })),
  // Here, not in an API, so that /apis writes (create, update, patches, apply) and the legacy save all raise it.
  canonicalize(obj, settings) {
    const min = settings[MIN_REFRESH_INTERVAL];
    if (obj.spec.refresh === undefined) return;
    const refresh = raisedRefresh(obj.spec.refresh, typeof min === 'string' ? min : undefined) as DashboardSpec['refresh'];
    obj.spec = { ...obj.spec, refresh };
  },
  // Its files own it: users save it only when its provider allows (the next change of the file overwrites them), and
  // never delete it (it would come back). The provisioner's own writes are not refused (the registry skips this).
  refuseChange(current, verb) {
    const a = current.metadata.annotations;
    if (!isProvisioned(a)) return undefined;
    if (verb === 'update' && a?.[ProvisioningAnnotations.allowsEdits] === 'true') return undefined;
    const details = { name: current.metadata.name, group: 'dashboard.svc.app', kind: 'dashboards' };
    return new StatusError(400, 'BadRequest', verb === 'update' ? ProvisionedDashboardMessages.save : ProvisionedDashboardMessages.delete, details);
  },
  decorate(obj) {
    obj.spec = extend(obj.spec, { uid: obj.metadata.name, version: obj.metadata.generation });
  },
};
