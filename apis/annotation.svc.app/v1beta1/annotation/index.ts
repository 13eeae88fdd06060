import type { KindRegistration } from '../../../../pkg/meta';
import { type AnnotationSpec, annotationSpecSchema } from './annotation-schema';
import { annotationStrategy } from './annotation-strategy';

export { type AnnotationSpec } from './annotation-schema';
export { ANNOTATION_LABELS, joinTag, parseTag, tagFilterLabel } from './annotation-strategy';

/** The scope of organization annotations, as the anchor names it. */
export const ORGANIZATION_ANNOTATIONS = 'annotations:type:organization';

/** The dashboard an annotation names, as its create checks it: a spec of any shape (the check precedes validation). */
const dashboardOf = (spec: unknown): string => {
  const uid = (spec as { dashboardUID?: unknown } | null)?.dashboardUID;
  return typeof uid === 'string' ? uid : '';
};

/**
 * Annotation, `annotation.svc.app/v1beta1` (a named-only group of the spec; shapes from the anchor's annotations):
 * named by its numeric id. Access is the anchor's (with its `annotationPermissionUpdate`, on by default): an
 * annotation of a dashboard is checked on the dashboard's scope, so whoever may view the dashboard (its managed
 * levels, its folders) reads its annotations and whoever may edit it writes them; an organization annotation on
 * `annotations:type:organization`, which Viewers read and Editors write. Its dashboard must exist and be readable
 * by its writer, and a dashboard's delete (or its folder's) takes its annotations along (the Dashboard kind's
 * cascades).
 */
export const annotationKind = {
  group: 'annotation.svc.app',
  version: 'v1beta1',
  kind: 'Annotation',
  plural: 'annotations',
  singular: 'annotation',
  categories: ['svc'],
  specSchema: annotationSpecSchema,
  strategy: annotationStrategy,
  deleteResponse: 'status',
  internalIds: 'name',
  // A dashboard the writer may not read is refused as a missing one (400 naming spec.dashboardUID).
  references: [{ field: 'dashboardUID', group: 'dashboard.svc.app', resource: 'dashboards', name: (spec) => spec.dashboardUID, requireRead: true }],
  access: {
    resource: 'annotations',
    scope: (spec) => (dashboardOf(spec) ? `dashboards:uid:${dashboardOf(spec)}` : ORGANIZATION_ANNOTATIONS),
    // fixed:annotations:reader (Viewers), fixed:annotations:writer (Editors), fixed:annotations.all:reader and
    // :writer (Admins: every dashboard's, through folders:*); the dashboards' levels grant the rest (dashboard kind).
    roles: {
      Viewer: [{ verbs: ['read'], on: { scope: 'annotations:*' } }],
      Editor: [{ verbs: ['create', 'write', 'delete'], on: { scope: 'annotations:*' } }],
      Admin: [{ verbs: ['read', 'create', 'write', 'delete'], on: { scope: 'folders:*' } }],
    },
  },
  printerColumns: [
    { name: 'Text', type: 'string', jsonPath: '.spec.text' },
    { name: 'Dashboard', type: 'string', jsonPath: '.spec.dashboardUID' },
    { name: 'Time', type: 'integer', jsonPath: '.spec.time' },
  ],
} satisfies KindRegistration<AnnotationSpec>;
