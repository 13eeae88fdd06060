import { z } from 'zod';
import { defineArea, guard, type LegacyParam } from '../shared';
import { createCommandSchema, DEFAULT_PER_PAGE, libraryElementErrors, patchCommandSchema } from './library-elements-conversions';
import {
  createLibraryElement,
  deleteLibraryElement,
  getLibraryElement,
  getLibraryElementConnections,
  getLibraryElementsByName,
  patchLibraryElement,
  searchLibraryElements,
} from './library-elements-routes';

/** The descriptions of the legacy library element routes (library-elements-routes.ts) for the OpenAPI documents. */

const metaUser = z.object({ id: z.number().int(), name: z.string().describe('The login'), avatarUrl: z.string() });

const elementSchema = z.object({
  id: z.number().int().describe('Numeric id, unique per installation'),
  orgId: z.number().int(),
  folderId: z.number().int().describe('Deprecated: use folderUid'),
  folderUid: z.string().describe('Empty at the root'),
  uid: z.string(),
  name: z.string(),
  kind: z.number().int().describe('1: panel, 2: variable'),
  type: z.string().describe("The model's type (a panel plugin)"),
  description: z.string(),
  model: z.record(z.string(), z.unknown()),
  version: z.number().int().describe('1 on create, +1 on every change; PATCH sends it back'),
  meta: z.object({
    folderName: z.string().describe('"General" at the root'),
    folderUid: z.string(),
    connectedDashboards: z.number().int().describe('How many dashboards use the element'),
    created: z.string(),
    updated: z.string(),
    createdBy: metaUser,
    updatedBy: metaUser,
  }),
});

const connectionSchema = z.object({
  id: z.number().int().describe('Deprecated'),
  kind: z.number().int(),
  elementId: z.number().int(),
  connectionId: z.number().int().describe("The dashboard's numeric id"),
  connectionUid: z.string().describe("The dashboard's uid"),
  created: z.string().describe("The dashboard's last save"),
  createdBy: metaUser,
});

const element = { schema: z.object({ result: elementSchema }), name: 'LibraryElementResponse' };
const uidParam: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };
const notFound = { description: 'No such element the caller may read: "library element could not be found".' };

/** The legacy library element API (spec §4.6), library-elements-routes.ts. */
export const libraryElementsArea = defineArea({
  name: 'library-elements',
  errors: libraryElementErrors,
  routes: [
    {
      method: 'get', path: '/api/library-elements', guard: guard.signedIn, handler: searchLibraryElements,
      operationId: 'getLibraryElements',
      summary: 'Search the library elements the caller may read.',
      description: 'Sorted by name; `totalCount` counts every match, `elements` is the page.',
      tags: ['library_elements'],
      params: [
        { name: 'searchString', in: 'query', type: 'string', description: 'Part of the name or description (any case)' },
        { name: 'kind', in: 'query', type: 'integer', enum: [1, 2], description: '1: panels, 2: variables; other values are ignored' },
        { name: 'sortDirection', in: 'query', type: 'string', enum: ['alpha-asc', 'alpha-desc'], default: 'alpha-asc' },
        { name: 'typeFilter', in: 'query', type: 'string', array: true, description: 'Comma-separated types, any of them' },
        { name: 'excludeUid', in: 'query', type: 'string', description: 'An element to leave out' },
        { name: 'folderFilterUIDs', in: 'query', type: 'string', array: true, description: 'Comma-separated folder uids; `general` is the root' },
        { name: 'folderFilter', in: 'query', type: 'string', array: true, deprecated: true, description: 'Deprecated comma-separated folder ids (0: the root); not with folderFilterUIDs' },
        { name: 'perPage', in: 'query', type: 'integer', default: DEFAULT_PER_PAGE },
        { name: 'page', in: 'query', type: 'integer', default: 1, description: 'From 1' },
      ],
      responses: {
        200: {
          description: 'One page of elements.',
          schema: z.object({ result: z.object({ totalCount: z.number().int(), elements: z.array(elementSchema), page: z.number().int(), perPage: z.number().int() }) }),
          name: 'LibraryElementSearchResponse',
        },
        400: { description: 'Both folderFilter and folderFilterUIDs.' },
      },
    },
    {
      // Before /api/library-elements/:uid, as the anchor's router tries it.
      method: 'get', path: '/api/library-elements/name/:name', guard: guard.signedIn, handler: getLibraryElementsByName,
      operationId: 'getLibraryElementByName',
      summary: 'The library elements of a name that the caller may read (one per folder and kind).',
      tags: ['library_elements'],
      params: [{ name: 'name', in: 'path', type: 'string', required: true }],
      responses: { 200: { description: 'The elements.', schema: z.object({ result: z.array(elementSchema) }), name: 'LibraryElementArrayResponse' }, 404: notFound },
    },
    {
      method: 'get', path: '/api/library-elements/:uid', guard: guard.signedIn, handler: getLibraryElement,
      operationId: 'getLibraryElementByUID',
      summary: 'Get a library element by uid.',
      tags: ['library_elements'],
      params: [uidParam],
      responses: { 200: { description: 'The element.', ...element }, 403: {}, 404: notFound },
    },
    {
      // The anchor documents the path with its trailing slash; express's non-strict routing answers it without one too.
      method: 'get', path: '/api/library-elements/:uid/connections/', guard: guard.signedIn, handler: getLibraryElementConnections,
      operationId: 'getLibraryElementConnections',
      summary: 'The dashboards using a library element (those the caller may read); the path answers with or without its trailing slash.',
      tags: ['library_elements'],
      params: [uidParam],
      responses: {
        200: { description: 'Its connections.', schema: z.object({ result: z.array(connectionSchema) }), name: 'LibraryElementConnectionsResponse' },
        403: {},
        404: notFound,
      },
    },
    {
      method: 'post', path: '/api/library-elements', guard: guard.can('library.panels:create'), handler: createLibraryElement,
      operationId: 'createLibraryElement',
      summary: 'Create a library element.',
      description: 'Needs `library.panels:create` on the folder (Editors at the root, folder editors in it).',
      tags: ['library_elements'],
      body: { schema: createCommandSchema, name: 'CreateLibraryElementCommand' },
      responses: {
        200: { description: 'The element created, version 1.', ...element },
        400: { description: 'A name or uid taken, a bad uid, an unknown folder, a missing or unsupported kind, no model.' },
        403: {},
      },
    },
    {
      method: 'patch', path: '/api/library-elements/:uid', guard: guard.signedIn, handler: patchLibraryElement,
      operationId: 'updateLibraryElement',
      summary: 'Change a library element: name, model, folder.',
      description: 'Needs `library.panels:write` on it, and `library.panels:create` in the folder it moves to.',
      tags: ['library_elements'],
      params: [uidParam],
      body: { schema: patchCommandSchema, name: 'PatchLibraryElementCommand' },
      responses: {
        200: { description: 'The element, its version + 1.', ...element },
        400: { description: 'A name taken in the folder, another kind, another uid, an unknown folder.' },
        403: {},
        404: notFound,
        412: { description: 'The element has been changed by someone else: its version is not `version`.' },
      },
    },
    {
      method: 'delete', path: '/api/library-elements/:uid', guard: guard.signedIn, handler: deleteLibraryElement,
      operationId: 'deleteLibraryElementByUID',
      summary: 'Delete a library element no dashboard uses.',
      description: 'Needs `library.panels:delete` on it. Deletion cannot be reverted.',
      tags: ['library_elements'],
      params: [uidParam],
      responses: {
        200: { description: 'Deleted.', schema: z.object({ message: z.literal('Library element deleted'), id: z.number().int() }), name: 'DeleteLibraryElementResponse' },
        403: { description: 'Not allowed, or "the library element has connections".' },
        404: notFound,
      },
    },
  ],
});
