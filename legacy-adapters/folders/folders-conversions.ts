import type { LegacyErrors } from '../shared/errors';
import { folderUrl } from '../shared/folder-url';
import { legacyCauseMessage, StatusError } from '../../pkg/errors';
import { Annotations, type KindRegistration, Labels, type Resource } from '../../pkg/meta';
import { MAX_NAME_LENGTH } from '../../pkg/registry/names';
import type { SearchResult } from '../../pkg/registry';

/**
 * The legacy folder API (spec §2.4, §4.2) in terms of the Folder kind (`folder.svc.app/v1beta1`): pure conversions
 * of bodies and records, and of the registry's errors into the anchor's words. Nothing here reads or writes.
 */

/** What the caller may do with a folder, from its real permissions. */
export interface FolderAccess {
  canSave: boolean;
  canEdit: boolean;
  canAdmin: boolean;
  canDelete: boolean;
}

/** The folder record of `GET /api/folders/:uid` and of every write (the anchor's `Folder`). */
export interface FolderDTO extends FolderAccess {
  id: number;
  uid: string;
  title: string;
  url: string;
  hasAcl: boolean;
  createdBy: string;
  created: string;
  updatedBy: string;
  updated: string;
  version: number;
  /** Only for a nested folder. */
  parentUid?: string;
  /** Only for a nested folder: root first, down to the parent. */
  parents?: FolderParent[];
}

/** A parent the caller may not read: only that it is there, nothing of it. */
export interface RedactedParent {
  uid: typeof REDACTED;
  title: typeof REDACTED;
}

export type FolderParent = FolderDTO | RedactedParent;

/** One entry of `GET /api/folders` (the anchor's `FolderSearchHit`). */
export interface FolderSearchHit {
  id: number;
  uid: string;
  title: string;
  parentUid?: string;
}

/** `POST /api/folders` (the anchor's `CreateFolderCommand`), bound and checked. `uid` '' = generate one. */
export interface CreateFolderCommand {
  uid: string;
  title: string;
  description?: string;
  parentUid: string;
}

/** `PUT /api/folders/:uid` (the anchor's `UpdateFolderCommand`), bound and checked. */
export interface UpdateFolderCommand {
  title?: string;
  description?: string;
  version?: number;
  overwrite: boolean;
}

/** The body the registry is given for a folder: the Folder kind's envelope without system fields. */
export interface FolderBody {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { title: string; description?: string };
}

/** What stands for a parent the caller may not read (the anchor's word). */
export const REDACTED = 'redacted';

/** The root's uid in permission scopes: no folder may take it. */
const GENERAL_UID = 'general';

/** The anchor's messages (its folder and dashboard errors). */
export const FolderMessages = {
  notFound: 'folder not found',
  titleEmpty: 'folder title cannot be empty',
  uidExists: 'a folder/dashboard with the same uid already exists',
  uidIllegal: 'uid contains illegal characters',
  uidTooLong: `uid too long, max ${MAX_NAME_LENGTH} characters`,
  uidInvalid: 'invalid uid for folder provided',
  badRequest: 'bad request data',
  deleted: 'Folder deleted',
} as const;

const bad = (message: string) => StatusError.badRequest(message);

/** 404 `{status: "not-found", message: "folder not found"}`, as the anchor answers for every folder route. */
export const folderNotFound = () => new StatusError(404, 'NotFound', FolderMessages.notFound, undefined, 'not-found');

/** The folder's parent uid ('' = the root). */
export function parentUidOf(obj: Resource): string {
  return obj.metadata.annotations?.[Annotations.folder] ?? '';
}

/** The deprecated numeric id the registry numbered the folder with (0 when it has none). */
export function internalIdOf(obj: Resource): number {
  return Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0) || 0;
}

const titleOf = (obj: Resource) => String((obj.spec as { title?: unknown }).title ?? '');

/**
 * The folder record of a stored Folder. `createdBy`/`updatedBy` are the logins the caller resolved from the
 * `user:<uid>` annotations; `parents` (root first) are shown for a nested folder when given (not for a record that
 * is itself in another's `parents`).
 *
 * @example
 *   toFolderDTO(folder, { access, createdBy: 'admin', updatedBy: 'admin', parents: [] });
 *   // { id: 1, uid: 'f1', title: 'Ops', url: '/dashboards/f/f1/ops', ..., version: 1 }
 */
export function toFolderDTO(obj: Resource, who: { access: FolderAccess; createdBy: string; updatedBy: string; parents?: FolderParent[] }): FolderDTO {
  const { name, creationTimestamp, generation, annotations } = obj.metadata;
  const title = titleOf(obj);
  const parentUid = parentUidOf(obj);
  return {
    id: internalIdOf(obj),
    uid: name,
    title,
    url: folderUrl(name, title),
    hasAcl: false,
    ...who.access,
    createdBy: who.createdBy,
    created: creationTimestamp,
    updatedBy: who.updatedBy,
    updated: annotations?.[Annotations.updatedTimestamp] ?? creationTimestamp,
    version: generation,
    ...(parentUid ? { parentUid, ...(who.parents ? { parents: who.parents } : {}) } : {}),
  };
}

/** A parent as the caller may see it: its record, or the redacted stand-in. */
export function redactedParent(): RedactedParent {
  return { uid: REDACTED, title: REDACTED };
}

/** The list form: id, uid, title (and parentUid for a nested folder). */
export function toFolderSearchHit(obj: Resource): FolderSearchHit {
  const parentUid = parentUidOf(obj);
  return { id: internalIdOf(obj), uid: obj.metadata.name, title: titleOf(obj), ...(parentUid ? { parentUid } : {}) };
}

/** The `GET /api/folders` record of a folder's row in the search index: what {@link toFolderSearchHit} makes of the folder. */
export function fromSearchHit(hit: SearchResult): FolderSearchHit {
  return { id: hit.internalId, uid: hit.key.name, title: hit.title, ...(hit.folder ? { parentUid: hit.folder } : {}) };
}

/** The Folder body a record stands for (the inverse of {@link toFolderDTO} on what the kind stores). */
export function fromFolderDTO(dto: Pick<FolderDTO, 'id' | 'uid' | 'title' | 'parentUid'>): FolderBody {
  return {
    metadata: {
      name: dto.uid,
      ...(dto.id ? { labels: { [Labels.deprecatedInternalID]: String(dto.id) } } : {}),
      ...(dto.parentUid ? { annotations: { [Annotations.folder]: dto.parentUid } } : {}),
    },
    spec: { title: dto.title },
  };
}

/** The Folder body of a create command whose uid is decided. */
export function folderBody(cmd: CreateFolderCommand & { uid: string }): FolderBody {
  return {
    metadata: { name: cmd.uid, ...(cmd.parentUid ? { annotations: { [Annotations.folder]: cmd.parentUid } } : {}) },
    spec: { title: cmd.title, ...(cmd.description !== undefined ? { description: cmd.description } : {}) },
  };
}

/** The create command of a Folder body (for round trips). */
export function toCreateFolderCommand(body: FolderBody): CreateFolderCommand {
  return {
    uid: body.metadata.name,
    title: body.spec.title,
    ...(body.spec.description !== undefined ? { description: body.spec.description } : {}),
    parentUid: body.metadata.annotations?.[Annotations.folder] ?? '',
  };
}

function object(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad(FolderMessages.badRequest);
  return body as Record<string, unknown>;
}

function optionalString(b: Record<string, unknown>, key: string): string | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(FolderMessages.badRequest);
  return v;
}

/** A title as the anchor takes it: trimmed, and not empty. */
function checkedTitle(title: string | undefined): string {
  const trimmed = (title ?? '').trim();
  if (trimmed === '') throw bad(FolderMessages.titleEmpty);
  return trimmed;
}

/** Why a client-chosen uid is refused (the anchor's checks, in its order), or undefined. */
export function uidProblem(uid: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(uid)) return FolderMessages.uidIllegal;
  if (uid.length > MAX_NAME_LENGTH) return FolderMessages.uidTooLong;
  if (uid.toLowerCase() === GENERAL_UID) return FolderMessages.uidInvalid;
  return undefined;
}

/**
 * Binds `POST /api/folders`: `uid` optional ('' = generate), `title` required and trimmed, `parentUid` optional.
 * @throws StatusError 400 with the anchor's message.
 * @example parseCreateFolderCommand({ title: ' Ops ' }); // { uid: '', title: 'Ops', parentUid: '' }
 */
export function parseCreateFolderCommand(body: unknown): CreateFolderCommand {
  const b = object(body);
  const uid = optionalString(b, 'uid') ?? '';
  const title = optionalString(b, 'title');
  const description = optionalString(b, 'description');
  const parentUid = optionalString(b, 'parentUid') ?? '';
  const problem = uidProblem(uid);
  if (problem) throw bad(problem);
  return { uid, title: checkedTitle(title), ...(description !== undefined ? { description } : {}), parentUid };
}

/**
 * Binds `PUT /api/folders/:uid`: `title` (when given, trimmed and not empty), `description`, `version`, `overwrite`.
 * @example parseUpdateFolderCommand({ title: 'Ops', version: 2 }); // { title: 'Ops', version: 2, overwrite: false }
 */
export function parseUpdateFolderCommand(body: unknown): UpdateFolderCommand {
  const b = object(body);
  const title = optionalString(b, 'title');
  const description = optionalString(b, 'description');
  const { version, overwrite } = b;
  if (version !== undefined && version !== null && !Number.isSafeInteger(version)) throw bad(FolderMessages.badRequest);
  if (overwrite !== undefined && overwrite !== null && typeof overwrite !== 'boolean') throw bad(FolderMessages.badRequest);
  return {
    ...(title !== undefined ? { title: checkedTitle(title) } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(typeof version === 'number' ? { version } : {}),
    overwrite: overwrite === true,
  };
}

/** Binds `POST /api/folders/:uid/move`: the new parent ('' or absent = the root). */
export function parseMoveFolderCommand(body: unknown): { parentUid: string } {
  return { parentUid: optionalString(object(body ?? {}), 'parentUid') ?? '' };
}

/**
 * The generation an update must be made on (the registry's `expectedGeneration`): the legacy `version` is the
 * folder's generation (it grows with every change of the folder's spec); none is never the stored one (generations
 * start at 1); `overwrite` skips the check, as in the anchor.
 */
export function expectedGenerationOf(cmd: UpdateFolderCommand): number | undefined {
  return cmd.overwrite ? undefined : (cmd.version ?? 0);
}

/** The folder with an update command's changes. */
export function updatedFolder(current: Resource, cmd: UpdateFolderCommand): Resource {
  const spec = { ...current.spec };
  if (cmd.title !== undefined) spec.title = cmd.title;
  if (cmd.description !== undefined) spec.description = cmd.description;
  return { ...current, spec };
}

/** The folder under another parent ('' = the root). */
export function movedFolder(current: Resource, parentUid: string): Resource {
  const { [Annotations.folder]: _old, ...annotations } = current.metadata.annotations ?? {};
  return { ...current, metadata: { ...current.metadata, annotations: parentUid ? { ...annotations, [Annotations.folder]: parentUid } : annotations } };
}

/**
 * The registry's errors in the anchor's words, for every folder route: a missing folder is 404
 * `{status: "not-found", message}`, a taken uid 412 (spec §7.3), an invalid field 400. Everything else (403, 400
 * cycles, 412 version-mismatch) passes as is.
 */
export const folderErrors: LegacyErrors = {
  notFound: folderNotFound,
  alreadyExists: () => new StatusError(412, 'AlreadyExists', FolderMessages.uidExists),
  invalid: (err) => {
    const cause = err.details?.causes?.[0];
    return bad(cause?.reason === 'FieldValueTooLong' ? legacyCauseMessage(cause) : cause?.message ?? err.message);
  },
};

/**
 * `GET /api/folders/:uid/counts`: what lies under the folder, by the plural of each kind that lives in folders
 * (`folders`, `dashboards`, `librarypanels`), the anchor's resource-style keys; `alertrules` is 0, as no alert rules
 * are stored.
 *
 * @example toDescendantCounts(new Map([[folderKind, 1], [dashboardKind, 3]])) // { folders: 1, dashboards: 3, alertrules: 0 }
 */
export function toDescendantCounts(counts: ReadonlyMap<Pick<KindRegistration, 'plural'>, number>): Record<string, number> {
  return { ...Object.fromEntries([...counts].map(([kind, n]) => [kind.plural, n])), alertrules: 0 };
}
