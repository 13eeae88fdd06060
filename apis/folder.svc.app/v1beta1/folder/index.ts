import { StatusError } from '../../../../pkg/errors';
import { CREATOR_ADMIN_ROLES_AT_ROOT, type KindRegistration } from '../../../../pkg/meta';
import { type FolderSpec, folderSpecSchema } from './folder-schema';

const FOLDER_VIEW = ['folders:read', 'library.panels:read'];
const FOLDER_EDIT = [
  ...FOLDER_VIEW,
  'folders:write',
  'folders:delete',
  'folders:create',
  'dashboards:create',
  'library.panels:create',
  'library.panels:write',
  'library.panels:delete',
];

/**
 * Folder, `folder.svc.app/v1beta1` (spec §2.3, §4.1). Folders nest through the `svc.app/folder` annotation; the
 * registry's folder rules (parent exists, no cycles, cascading delete) apply because `isFolder` is set.
 */
export const folderKind = {
  group: 'folder.svc.app',
  version: 'v1beta1',
  kind: 'Folder',
  plural: 'folders',
  singular: 'folder',
  categories: ['svc'],
  specSchema: folderSpecSchema,
  isFolder: true,
  inFolder: true,
  deleteResponse: 'object',
  // Spec §4.1 rule 4: a stale folder update is 412 {message, status: "version-mismatch"}, in both API styles.
  conflictError: () => new StatusError(412, 'Conflict', 'the folder has been changed by someone else', undefined, 'version-mismatch'),
  internalIds: true,
  access: {
    resource: 'folders',
    // fixed:folders.general:reader (Viewers list the root, not what is in it), fixed:folders:creator (Editors, root
    // folders only, spec §5.6), fixed:folders:writer and folders.permissions:writer (Admins).
    roles: {
      Viewer: [{ verbs: ['read'], on: 'root' }],
      Editor: [{ verbs: ['create'], on: 'root' }],
      Admin: [{ verbs: ['read', 'create', 'write', 'delete', 'permissions:read', 'permissions:write'], on: 'all' }],
    },
    managed: {
      // The anchor's FolderViewActions... (ossaccesscontrol/folder.go, without alerting); with each level also go
      // that level's actions of the kinds in folders (dashboards), so that it grants them on everything below.
      // `folders:create` is in Edit: an editor of a folder may create subfolders in it (spec §5.6).
      levels: {
        View: [...FOLDER_VIEW],
        Edit: [...FOLDER_EDIT],
        Admin: [...FOLDER_EDIT, 'folders.permissions:read', 'folders.permissions:write'],
      },
      defaults: CREATOR_ADMIN_ROLES_AT_ROOT,
    },
  },
  search: { title: (f) => f.spec.title },
  printerColumns: [{ name: 'Title', type: 'string', jsonPath: '.spec.title' }],
} satisfies KindRegistration<FolderSpec>;
