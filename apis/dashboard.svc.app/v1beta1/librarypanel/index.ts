import { StatusError } from '../../../../pkg/errors';
import { Annotations, type KindRegistration } from '../../../../pkg/meta';
import { type LibraryPanelSpec, libraryPanelSpecSchema } from './librarypanel-schema';
import { libraryPanelStrategy } from './librarypanel-strategy';

export { LibraryElementKind, type LibraryPanelSpec } from './librarypanel-schema';
export { LibraryPanelMessages, libraryPanelConnections, libraryPanelsWithoutUid, libraryPanelUids } from './librarypanel-references';

/** The anchor's refusal of a name (or uid) already taken (anchor-api.md). */
export const LIBRARY_ELEMENT_EXISTS = 'library element with that name or UID already exists';

/**
 * LibraryPanel, `dashboard.svc.app/v1beta1` (spec §2.8, §4.6): a library element, a panel (`kind` 1) or a variable
 * (`kind` 2) that dashboards reuse. Beside the dashboards it serves, as the anchor keeps library panels in the
 * dashboard group. It lives in a folder (the `svc.app/folder` annotation: folder permissions, moves and folder
 * deletes apply as for dashboards), its name is unique in its folder per element kind, `metadata.generation` is its
 * version and the `svc.app/deprecatedInternalID` label its legacy `id`. Dashboards connect to it through the
 * `libraryPanel.uid` of their panels (the dashboard kind's `references`).
 */
export const libraryPanelKind = {
  group: 'dashboard.svc.app',
  version: 'v1beta1',
  kind: 'LibraryPanel',
  plural: 'librarypanels',
  singular: 'librarypanel',
  categories: ['svc'],
  specSchema: libraryPanelSpecSchema,
  strategy: libraryPanelStrategy,
  inFolder: true,
  deleteResponse: 'status',
  internalIds: true,
  unique: [
    {
      field: 'name',
      value: (spec, obj) => `${obj.metadata.annotations?.[Annotations.folder] ?? ''}/${spec.kind}/${spec.name}`,
      error: () => new StatusError(409, 'AlreadyExists', LIBRARY_ELEMENT_EXISTS),
    },
  ],
  access: {
    // The anchor's fixed:library.panels:general.reader (Viewers), :general.writer (Editors) and :writer (Admins).
    // Elements in folders follow the folder: its View level reads them, Edit writes them (the folder kind's levels).
    resource: 'library.panels',
    roles: {
      Viewer: [{ verbs: ['read'], on: 'root' }],
      Editor: [{ verbs: ['create', 'write', 'delete'], on: 'root' }],
      Admin: [{ verbs: ['read', 'create', 'write', 'delete'], on: 'all' }],
    },
  },
  // The legacy search matches, selects and sorts by these in the database; names sort as they are (case kept).
  fields: {
    name: { path: ['spec', 'name'], as: 'exact' },
    description: { path: ['spec', 'description'] },
    kind: { path: ['spec', 'kind'], as: 'number' },
    type: { path: ['spec', 'type'] },
  },
  printerColumns: [
    { name: 'Name', type: 'string', jsonPath: '.spec.name' },
    { name: 'Kind', type: 'integer', jsonPath: '.spec.kind' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
  ],
} satisfies KindRegistration<LibraryPanelSpec>;
