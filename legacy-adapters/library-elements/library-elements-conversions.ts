import { z } from 'zod';
import { LIBRARY_ELEMENT_EXISTS, LibraryElementKind, type LibraryPanelSpec } from '../../apis/dashboard.svc.app/v1beta1/librarypanel';
import { legacyCauseMessage, StatusError } from '../../pkg/errors';
import { Annotations, type JsonObject, Labels, type Resource } from '../../pkg/meta';
import type { PageRequest } from '../../pkg/registry';
import { byKind, type LegacyErrors } from '../shared/errors';
import { positiveQueryInt, queryString } from '../shared/params';

/** The anchor's words for library elements (anchor-api.md, anchor-breadth.md §5). */
export const LibraryElementMessages = {
  exists: LIBRARY_ELEMENT_EXISTS,
  notFound: 'library element could not be found',
  changed: 'the library element has been changed by someone else',
  deleted: 'Library element deleted',
  badRequest: 'bad request data',
  kindNotSupported: 'the element kind is not supported',
  bothFolderFilters: 'cannot pass both folderFilter and folderFilterUIDs',
  folderNotFound: 'failed to get folder',
  uidChange: "a library element's uid cannot be changed",
} as const;

/** Spec §8: a page of elements holds this many unless `perPage` says otherwise. */
export const DEFAULT_PER_PAGE = 100;

/** `folderFilterUIDs` names the root so. */
const GENERAL = 'general';

const kindSchema = z.int().describe('1: a library panel, 2: a library variable');
const modelSchema = z.record(z.string(), z.unknown()).describe('The JSON model of the element');

export const createCommandSchema = z.object({
  folderUid: z.string().nullish().describe('The folder; empty or absent = the root'),
  folderId: z.int().nullish().describe('Deprecated: use folderUid'),
  name: z.string().nullish().describe('Unique in the folder per kind'),
  model: modelSchema,
  kind: kindSchema,
  uid: z.string().nullish().describe('Letters, digits, "-" and "_", at most 40; generated when absent'),
});

export const patchCommandSchema = z.object({
  folderUid: z.string().nullish().describe('Moves the element; empty = the root; absent keeps its folder'),
  folderId: z.int().nullish().describe('Deprecated: use folderUid'),
  name: z.string().nullish().describe('Absent keeps the name'),
  model: modelSchema.nullish().describe('Absent keeps the model'),
  kind: kindSchema.describe("Must be the element's kind"),
  version: z.int().describe('The version read; a different stored version is 412'),
  uid: z.string().nullish().describe("The element's own uid (a uid cannot be changed)"),
});

/** Where a command puts the element: a folder uid ('' = the root), or a deprecated folder id to look up. */
export type FolderChoice = { uid: string } | { id: number } | undefined;

export interface CreateCommand {
  uid?: string;
  folder: FolderChoice;
  name: string;
  kind: number;
  model: JsonObject;
}

export interface PatchCommand {
  uid?: string;
  folder: FolderChoice;
  name?: string;
  kind: number;
  model?: JsonObject;
  version: number;
}

/** The kind a command names: 0 or absent is unbound (400 bad request data); others than 1 and 2, not supported. */
function checkKind(kind: number): number {
  if (kind === 0) throw StatusError.badRequest(LibraryElementMessages.badRequest);
  if (kind !== LibraryElementKind.panel && kind !== LibraryElementKind.variable) throw StatusError.badRequest(LibraryElementMessages.kindNotSupported);
  return kind;
}

function folderChoice(folderUid: string | null | undefined, folderId: number | null | undefined): FolderChoice {
  if (folderUid !== undefined && folderUid !== null) return { uid: folderUid === GENERAL ? '' : folderUid };
  if (folderId !== undefined && folderId !== null) return folderId === 0 ? { uid: '' } : { id: folderId };
  return undefined;
}

/**
 * The body of `POST /api/library-elements`, bound as the anchor binds it.
 *
 * @example parseCreateCommand({ name: 'CPU', kind: 1, model: { type: 'stat' } }) // { name: 'CPU', kind: 1, model: {...}, folder: undefined }
 */
export function parseCreateCommand(body: unknown): CreateCommand {
  const parsed = createCommandSchema.safeParse(body);
  if (!parsed.success) throw StatusError.badRequest(LibraryElementMessages.badRequest);
  const { folderUid, folderId, name, model, kind, uid } = parsed.data;
  return { uid: uid || undefined, folder: folderChoice(folderUid, folderId), name: name ?? '', kind: checkKind(kind), model: model as JsonObject };
}

/** The body of `PATCH /api/library-elements/:uid`. */
export function parsePatchCommand(body: unknown): PatchCommand {
  const parsed = patchCommandSchema.safeParse(body);
  if (!parsed.success) throw StatusError.badRequest(LibraryElementMessages.badRequest);
  const { folderUid, folderId, name, model, kind, version, uid } = parsed.data;
  return {
    uid: uid || undefined,
    folder: folderChoice(folderUid, folderId),
    name: name ?? undefined,
    kind: checkKind(kind),
    model: (model ?? undefined) as JsonObject | undefined,
    version,
  };
}

/** The object a create writes, its folder resolved to a uid. */
export function toNewElement(cmd: CreateCommand, uid: string, folderUid: string): JsonObject {
  return {
    metadata: { name: uid, ...(folderUid ? { annotations: { [Annotations.folder]: folderUid } } : {}) },
    spec: { name: cmd.name, kind: cmd.kind, model: cmd.model },
  };
}

/** The object a patch writes over `current`: what the command omits is kept; `folderUid` undefined keeps the folder. */
export function toPatchedElement(current: Resource, cmd: PatchCommand, folderUid: string | undefined): JsonObject {
  const annotations: Record<string, string> = { ...current.metadata.annotations };
  if (folderUid !== undefined) {
    if (folderUid) annotations[Annotations.folder] = folderUid;
    else delete annotations[Annotations.folder];
  }
  const model = cmd.model ?? current.spec.model;
  return {
    ...current,
    metadata: { ...current.metadata, annotations },
    spec: {
      ...current.spec,
      name: cmd.name ?? current.spec.name,
      kind: cmd.kind,
      // The model's type and description, when it has them, become the element's (the kind's strategy).
      model,
    },
  };
}

/** `{id, name, avatarUrl}` of a user in an element's meta. */
export interface MetaUser {
  id: number;
  name: string;
  avatarUrl: string;
}

export const NO_USER: MetaUser = { id: 0, name: '', avatarUrl: '' };

/** What a DTO needs besides the element: its folder, its connections, who created and last changed it. */
export interface ElementContext {
  orgId: number;
  folder: { id: number; uid: string; title: string };
  connectedDashboards: number;
  createdBy: MetaUser;
  updatedBy: MetaUser;
}

export interface LibraryElementDTO {
  id: number;
  orgId: number;
  folderId: number;
  folderUid: string;
  uid: string;
  name: string;
  kind: number;
  type: string;
  description: string;
  model: JsonObject;
  version: number;
  meta: {
    folderName: string;
    folderUid: string;
    connectedDashboards: number;
    created: string;
    updated: string;
    createdBy: MetaUser;
    updatedBy: MetaUser;
  };
}

/** A library element as the registry answers it (the LibraryPanel kind's own spec). */
export type LibraryElementObject = Resource<LibraryPanelSpec>;

export const legacyIdOf = (obj: Resource<unknown>): number => Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0);
export const folderUidOf = (obj: Resource<unknown>): string => obj.metadata.annotations?.[Annotations.folder] ?? '';

/** The anchor's LibraryElementDTO (spec §2.8) of a LibraryPanel. */
export function toElementDTO(obj: LibraryElementObject, c: ElementContext): LibraryElementDTO {
  const created = obj.metadata.creationTimestamp;
  const spec = obj.spec;
  return {
    id: legacyIdOf(obj),
    orgId: c.orgId,
    folderId: c.folder.id,
    folderUid: c.folder.uid,
    uid: obj.metadata.name,
    name: spec.name,
    kind: spec.kind,
    type: spec.type,
    description: spec.description,
    model: spec.model,
    version: obj.metadata.generation,
    meta: {
      folderName: c.folder.title,
      folderUid: c.folder.uid,
      connectedDashboards: c.connectedDashboards,
      created,
      updated: obj.metadata.annotations?.[Annotations.updatedTimestamp] ?? created,
      createdBy: c.createdBy,
      updatedBy: c.updatedBy,
    },
  };
}

export interface LibraryElementConnectionDTO {
  id: number;
  kind: number;
  elementId: number;
  connectionId: number;
  connectionUid: string;
  created: string;
  createdBy: MetaUser;
}

/**
 * A connection (spec §2.8): the dashboard using the element, as of its last save. `id` is deprecated and has no
 * stored row of its own here: it is the dashboard's id, unique per element.
 */
export function toConnectionDTO(element: LibraryElementObject, dashboard: Resource, createdBy: MetaUser): LibraryElementConnectionDTO {
  const id = legacyIdOf(dashboard);
  return {
    id,
    kind: Number(element.spec.kind),
    elementId: legacyIdOf(element),
    connectionId: id,
    connectionUid: dashboard.metadata.name,
    created: dashboard.metadata.annotations?.[Annotations.updatedTimestamp] ?? dashboard.metadata.creationTimestamp,
    createdBy,
  };
}

/** What `GET /api/library-elements` asks for (anchor-breadth.md §5.1). */
export interface ElementSearch {
  searchString: string;
  kind?: number;
  order: 'asc' | 'desc';
  types: string[];
  excludeUid?: string;
  /** Folder uids ('' = the root), or undefined for every folder. */
  folderUids?: string[];
  /** Deprecated folder ids (0 = the root), to look up. */
  folderIds?: number[];
  perPage: number;
  page: number;
}

const list = (v: unknown) => (queryString(v) ?? '').split(',').map((s) => s.trim());

/**
 * The query of a search, read as the anchor reads it: `kind` other than 1 or 2 and an unknown `sortDirection` are
 * ignored, `perPage` and `page` below 1 take their defaults.
 *
 * @throws 400 when both folder filters are given.
 */
export function parseElementSearch(query: Record<string, unknown>): ElementSearch {
  const kind = Number(queryString(query.kind));
  const folderFilter = queryString(query.folderFilter);
  const folderFilterUIDs = queryString(query.folderFilterUIDs);
  if (folderFilter && folderFilterUIDs) throw StatusError.badRequest(LibraryElementMessages.bothFolderFilters);
  return {
    searchString: queryString(query.searchString) ?? '',
    kind: kind === LibraryElementKind.panel || kind === LibraryElementKind.variable ? kind : undefined,
    order: queryString(query.sortDirection) === 'alpha-desc' ? 'desc' : 'asc',
    types: list(query.typeFilter).filter((s) => s !== ''),
    excludeUid: queryString(query.excludeUid) || undefined,
    folderUids: folderFilterUIDs ? list(folderFilterUIDs).map((u) => (u === GENERAL ? '' : u)) : undefined,
    folderIds: folderFilter ? list(folderFilter).filter((s) => /^[0-9]{1,15}$/.test(s)).map(Number) : undefined,
    perPage: positiveQueryInt(query.perPage, DEFAULT_PER_PAGE),
    page: positiveQueryInt(query.page, 1),
  };
}

/**
 * The registry page a search asks for (its paging, filters and order done by the database): the name or the
 * description holds `searchString` (any case), then the filters, sorted by name as it is (case kept), then uid.
 *
 * @example elementPage({ ...search, searchString: 'cpu', page: 2, perPage: 10 }) // { query: {...}, offset: 10, limit: 10, ... }
 */
export function elementPage(q: ElementSearch & { folderUids?: string[] }): PageRequest {
  return {
    ...(q.searchString ? { query: { text: q.searchString, fields: ['name', 'description'] } } : {}),
    where: { ...(q.kind !== undefined ? { kind: q.kind } : {}), ...(q.types.length ? { type: q.types } : {}) },
    ...(q.excludeUid ? { excludeNames: [q.excludeUid] } : {}),
    ...(q.folderUids ? { folders: q.folderUids } : {}),
    orderBy: ['name'],
    descending: q.order === 'desc',
    offset: (q.page - 1) * q.perPage,
    limit: q.perPage,
  };
}

/** A 422 of the registry as the anchor's 400: the uid's words, else the first cause's message. */
function fromInvalid(err: StatusError): StatusError {
  const causes = err.details?.causes ?? [];
  const uid = causes.find((c) => c.field === 'metadata.name' || c.field === 'metadata.generateName');
  if (uid) return StatusError.badRequest(uid.message.startsWith('Too long') ? 'uid too long, max 40 characters' : 'uid contains illegal characters');
  if (causes.some((c) => c.field === 'spec.kind')) return StatusError.badRequest(LibraryElementMessages.kindNotSupported);
  return StatusError.badRequest(causes[0] ? legacyCauseMessage(causes[0]) : err.message);
}

const FOLDER_FIELD = `metadata.annotations[${Annotations.folder}]`;

/** The registry's errors in the anchor's words, for every library element route. */
export const libraryElementErrors: LegacyErrors = {
  notFound: byKind({ librarypanels: () => new StatusError(404, 'NotFound', LibraryElementMessages.notFound) }),
  alreadyExists: () => StatusError.badRequest(LibraryElementMessages.exists),
  conflict: byKind({ librarypanels: () => new StatusError(412, 'Conflict', LibraryElementMessages.changed) }),
  invalid: fromInvalid,
  badRequest: (err) => (err.details?.causes?.some((c) => c.field === FOLDER_FIELD) ? StatusError.badRequest(LibraryElementMessages.folderNotFound) : err),
};
