import { StatusError } from '../../../../pkg/errors';
import type { KindRegistration } from '../../../../pkg/meta';
import { type FolderSpec, folderSpecSchema } from './folder-schema';

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
  access: { resource: 'folders' },
  search: { title: (f) => f.spec.title },
  printerColumns: [{ name: 'Title', type: 'string', jsonPath: '.spec.title' }],
} satisfies KindRegistration<FolderSpec>;
