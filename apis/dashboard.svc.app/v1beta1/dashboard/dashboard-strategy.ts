import type { KindStrategy, Resource } from '../../../../pkg/meta';
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
  decorate(obj) {
    obj.spec = { ...obj.spec, uid: obj.metadata.name, version: obj.metadata.generation };
  },
};
