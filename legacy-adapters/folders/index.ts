import { z } from 'zod';
import { defineArea, guard, type LegacyParam } from '../shared';
import { folderErrors } from './folders-conversions';
import { createFolder, deleteFolder, getFolderByID, getFolderByUID, getFolderDescendantCounts, getFolders, moveFolder, updateFolder } from './folders-routes';

/** The descriptions of the legacy folder routes (folders-routes.ts) for the OpenAPI documents. */

const folderBase = {
  id: z.number().int().describe('Deprecated numeric id, stable per organization: use uid'),
  uid: z.string().describe('The folder uid (at most 40 characters)'),
  title: z.string(),
  url: z.string().describe('The folder page: /dashboards/f/<uid>/<slug>'),
  hasAcl: z.boolean(),
  canSave: z.boolean().describe('The caller may change the folder (folders:write)'),
  canEdit: z.boolean().describe('As canSave'),
  canAdmin: z.boolean().describe('The caller may change the folder permissions (folders.permissions:write)'),
  canDelete: z.boolean().describe('The caller may delete the folder (folders:delete)'),
  createdBy: z.string().describe('Login of the creator, "Anonymous" when unknown'),
  created: z.string().describe('RFC 3339 creation time'),
  updatedBy: z.string().describe('Login of the last writer, "Anonymous" when unknown'),
  updated: z.string().describe('RFC 3339 time of the last change'),
  version: z.number().int().describe('Grows with every change of the title or description; PUT sends it back'),
  parentUid: z.string().optional().describe('Only for a nested folder'),
};

const parentSchema = z.union([
  z.object(folderBase),
  z.object({ uid: z.literal('redacted'), title: z.literal('redacted') }).describe('A parent the caller may not read'),
]);

const folderSchema = z.object({
  ...folderBase,
  parents: z.array(parentSchema).optional().describe('Only for a nested folder: the parents from the root down'),
});

const folderHitSchema = z.object({ id: z.number().int(), uid: z.string(), title: z.string(), parentUid: z.string().optional() });

const createSchema = z.object({
  uid: z.string().optional().describe('Letters, digits, "-" and "_", at most 40; generated when absent'),
  title: z.string().describe('Trimmed; must not be empty'),
  description: z.string().optional(),
  parentUid: z.string().optional().describe('Create under this folder (nested folders)'),
});

const updateSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  version: z.number().int().optional().describe('The version read; a different stored version is 412 version-mismatch'),
  overwrite: z.boolean().optional().describe('Skip the version check'),
});

const moveSchema = z.object({ parentUid: z.string().optional().describe('The new parent; empty or absent = the root') });

const deletedSchema = z.object({ message: z.literal('Folder deleted'), id: z.number().int(), title: z.string() });

const versionMismatch = z.object({ message: z.string(), status: z.literal('version-mismatch') });
const notFound = { description: 'No such folder: {"status": "not-found", "message": "folder not found"}.' };
const folder = { schema: folderSchema, name: 'Folder' };
const uidParam: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };

/** The legacy folder API (spec §4.2), folders-routes.ts. */
export const foldersArea = defineArea({
  name: 'folders',
  errors: folderErrors,
  routes: [
    {
      method: 'get', path: '/api/folders', guard: guard.signedIn, handler: getFolders,
      operationId: 'getFolders',
      summary: 'The folders directly under the root or under a parent that the caller may read.',
      description: 'Sorted by title, paged by `limit` and `page`.',
      tags: ['folders'],
      params: [
        { name: 'limit', in: 'query', type: 'integer', default: 1000, description: 'Folders per page' },
        { name: 'page', in: 'query', type: 'integer', default: 1, description: 'Page, from 1' },
        { name: 'parentUid', in: 'query', type: 'string', description: 'Only the immediate children of this folder' },
      ],
      responses: { 200: { description: 'The folders.', schema: z.array(folderHitSchema), name: 'FolderSearchHits' }, 404: notFound },
    },
    {
      // Before /api/folders/:uid, as the anchor's router tries it.
      method: 'get', path: '/api/folders/id/:id', guard: guard.signedIn, handler: getFolderByID,
      operationId: 'getFolderByID',
      summary: 'Get a folder by its deprecated numeric id.',
      tags: ['folders'],
      params: [{ name: 'id', in: 'path', type: 'integer', required: true }],
      deprecated: { replacedBy: 'GET /api/folders/:uid' },
      responses: { 200: { description: 'The folder.', ...folder }, 400: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/folders/:uid', guard: guard.signedIn, handler: getFolderByUID,
      operationId: 'getFolderByUID',
      summary: 'Get a folder by uid.',
      tags: ['folders'],
      params: [uidParam],
      responses: { 200: { description: 'The folder.', ...folder }, 403: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/folders/:uid/counts', guard: guard.signedIn, handler: getFolderDescendantCounts,
      operationId: 'getFolderDescendantCounts',
      summary: 'How many folders, dashboards and library panels lie under a folder, its subfolders at any depth included.',
      description:
        'Keys are the resource-style plurals: `folders`, `dashboards`, `librarypanels`, and `alertrules` (always 0: no alert rules are stored). ' +
        'The folder is read as the caller (`folders:read` on it, or inherited from a folder above); only what the caller may read is counted.',
      tags: ['folders'],
      params: [uidParam],
      responses: {
        200: { description: 'The counts.', schema: z.object({ folders: z.number().int(), dashboards: z.number().int(), librarypanels: z.number().int(), alertrules: z.literal(0) }).catchall(z.number().int()), name: 'DescendantCounts' },
        403: {},
        404: notFound,
      },
    },
    {
      method: 'post', path: '/api/folders', guard: guard.can('folders:create'), handler: createFolder,
      operationId: 'createFolder',
      summary: 'Create a folder.',
      tags: ['folders'],
      body: { schema: createSchema, name: 'CreateFolderCommand' },
      responses: {
        200: { description: 'The folder created.', ...folder },
        400: { description: 'Empty title, bad uid, unknown parent, nested folders disabled.' },
        403: {},
        412: { description: 'A folder with this uid exists.' },
      },
    },
    {
      method: 'put', path: '/api/folders/:uid', guard: guard.can('folders:write', 'folders:uid:{uid}'), handler: updateFolder,
      operationId: 'updateFolder',
      summary: 'Change a folder title or description.',
      tags: ['folders'],
      params: [uidParam],
      body: { schema: updateSchema, name: 'UpdateFolderCommand' },
      responses: {
        200: { description: 'The folder updated.', ...folder },
        400: {},
        403: {},
        404: notFound,
        412: { description: 'The folder has been changed by someone else.', schema: versionMismatch },
      },
    },
    {
      method: 'delete', path: '/api/folders/:uid', guard: guard.can('folders:delete', 'folders:uid:{uid}'), handler: deleteFolder,
      operationId: 'deleteFolder',
      summary: 'Delete a folder with everything in it (subfolders and dashboards).',
      tags: ['folders'],
      params: [uidParam, { name: 'forceDeleteRules', in: 'query', type: 'boolean', default: false, description: 'Also delete alert rules (none are stored)' }],
      responses: { 200: { description: 'Deleted.', schema: deletedSchema, name: 'DeleteFolderResponse' }, 403: {}, 404: notFound },
    },
    {
      method: 'post', path: '/api/folders/:uid/move', guard: guard.can('folders:write', 'folders:uid:{uid}'), handler: moveFolder,
      operationId: 'moveFolder',
      summary: 'Move a folder under another parent or to the root.',
      tags: ['folders'],
      params: [uidParam],
      body: { schema: moveSchema, name: 'MoveFolderCommand' },
      responses: {
        200: { description: 'The folder moved, with parentUid and parents.', ...folder },
        400: { description: 'Unknown parent, a move into its own subtree, nested folders disabled.' },
        403: {},
        404: notFound,
      },
    },
  ],
});
