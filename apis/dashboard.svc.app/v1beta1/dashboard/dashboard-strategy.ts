import type { KindStrategy, Resource } from '../../../../pkg/meta';
import type { DashboardSpec } from './dashboard-schema';

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
  decorate(obj) {
    obj.spec = { ...obj.spec, uid: obj.metadata.name, version: obj.metadata.generation };
  },
};
