import type { DashboardRights } from '../../pkg/auth/authorization/dashboard-rights';
import { folderUrl } from '../shared/folder-url';
import { z } from 'zod';
import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { StatusError } from '../../pkg/errors';
import { Annotations, isProvisioned, type JsonObject, Labels, ProvisioningAnnotations, type Resource } from '../../pkg/meta';

/** The legacy body of `POST /api/dashboards/db` (the anchor's SaveDashboardCommand, spec §2.6). */
export const saveDashboardCommandSchema = z.looseObject({
  dashboard: z.looseObject({
    id: z.int().nullish().describe('null creates; the id of an existing dashboard updates it (deprecated: use uid)'),
    uid: z.string().nullish().describe('null or absent generates one'),
    title: z.string().optional(),
    version: z.int().nullish().describe('the version the change was made on: a newer stored one is a 412 version-mismatch'),
    refresh: z.union([z.string(), z.literal(false)]).nullish().describe('raised to dashboards.min_refresh_interval when lower (by the dashboard kind, for both APIs)'),
  }),
  folderId: z.int().nullish().describe('deprecated: use folderUid'),
  folderUid: z.string().nullish().describe('wins over folderId; neither puts the dashboard at the root'),
  message: z.string().nullish().describe('kept in the version history'),
  overwrite: z.boolean().nullish().describe('true overwrites whatever is stored under the uid'),
  isFolder: z.boolean().nullish().describe('refused: folders are saved through /api/folders'),
});

export interface SaveDashboardCommand {
  /** The dashboard model as sent, without the `id`, `uid` and `version` the command reads. */
  dashboard: JsonObject;
  id?: number;
  uid?: string;
  version?: number;
  folderUid?: string;
  folderId?: number;
  overwrite: boolean;
  message: string;
}

const MAX_MESSAGE_LENGTH = 500;

/** The anchor's 400 for a body it cannot bind. */
export const badRequestData = () => StatusError.badRequest('bad request data');

/**
 * The anchor's hint for a dashboard in the v2 schema (its `elements` and `layout`, or a v2 apiVersion) sent to the
 * legacy save, which only takes the classic model: rather than the schema errors the model would give, where to
 * send it. We serve no v2 version, so the hint names the /apis group that stores the dashboard as it is.
 */
export const v2NotSupported = () =>
  StatusError.badRequest('dashboard appears to be in v2 format. Please use the /apis/dashboard.svc.app/v1beta1 API, which stores the dashboard JSON as it is sent');

/**
 * Whether a dashboard is in the v2 schema: it has `elements` and `layout` (the v2 spec, sent bare), or it is a
 * resource whose apiVersion is a v2 one (`dashboard.svc.app/v2beta1`).
 *
 * @example isV2Dashboard({ title: 'A', elements: {}, layout: { kind: 'GridLayout' } }) // true
 */
export function isV2Dashboard(dashboard: unknown): boolean {
  if (typeof dashboard !== 'object' || dashboard === null || Array.isArray(dashboard)) return false;
  const d = dashboard as Record<string, unknown>;
  if (typeof d.apiVersion === 'string' && /(^|\/)v2/.test(d.apiVersion)) return true;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  return isObject(d.elements) && isObject(d.layout);
}

/**
 * The legacy save body, checked: refuses what the anchor refuses before saving (a folder payload, a long message).
 *
 * @example
 *   parseSaveCommand({ dashboard: { id: null, uid: 'a', title: 'A' }, folderUid: 'f', overwrite: true })
 *   // { dashboard: { title: 'A' }, uid: 'a', folderUid: 'f', overwrite: true, message: '' }
 */
export function parseSaveCommand(body: unknown): SaveDashboardCommand {
  if (isV2Dashboard((body as { dashboard?: unknown } | null)?.dashboard)) throw v2NotSupported();
  const parsed = saveDashboardCommandSchema.safeParse(body);
  if (!parsed.success) throw badRequestData();
  const { dashboard, folderId, folderUid, message, overwrite, isFolder } = parsed.data;
  if (isFolder) throw StatusError.badRequest('Use folders endpoint for saving folders.');
  if ((message ?? '').length > MAX_MESSAGE_LENGTH) throw StatusError.badRequest(`message too long, max ${MAX_MESSAGE_LENGTH} characters`);
  const { id, uid, version, ...model } = dashboard;
  return withoutUndefined({
    dashboard: model as JsonObject,
    id: id || undefined,
    uid: uid || undefined,
    version: version ?? undefined,
    folderUid: folderUid || undefined,
    folderId: folderId || undefined,
    overwrite: overwrite ?? false,
    message: message ?? '',
  });
}

/** The save command a stored dashboard stands for: what a client re-sending it unchanged would send. */
export function toSaveCommand(obj: Resource): SaveDashboardCommand {
  const { uid: _uid, version: _version, id: _id, ...model } = obj.spec;
  return withoutUndefined({
    dashboard: model,
    id: legacyIdOf(obj),
    uid: obj.metadata.name,
    version: obj.metadata.generation,
    folderUid: folderUidOf(obj) || undefined,
    overwrite: false,
    message: obj.metadata.annotations?.[Annotations.message] ?? '',
  });
}

/** The legacy-only annotations a save writes: each version carries its own message and where it was restored from. */
export interface SaveAnnotations {
  folderUid: string;
  message: string;
  restoredFrom?: number;
}

function legacyAnnotations(base: Record<string, string> | undefined, a: SaveAnnotations): Record<string, string> {
  const { [Annotations.folder]: _f, [Annotations.message]: _m, [Annotations.restoredFrom]: _r, ...rest } = base ?? {};
  return {
    ...rest,
    ...(a.folderUid ? { [Annotations.folder]: a.folderUid } : {}),
    ...(a.message ? { [Annotations.message]: a.message } : {}),
    ...(a.restoredFrom ? { [Annotations.restoredFrom]: String(a.restoredFrom) } : {}),
  };
}

/**
 * The Dashboard to create for a save: named by the uid, or generated with the anchor's 14-character shape
 * (`generatePrefix` + the registry's 5 random characters).
 *
 * @example toNewDashboard({ title: 'A' }, { uid: 'a' }, { folderUid: 'f', message: 'hi' })
 *   // { metadata: { name: 'a', annotations: { 'svc.app/folder': 'f', 'svc.app/message': 'hi' } }, spec: { title: 'A' } }
 */
export function toNewDashboard(model: JsonObject, name: { uid?: string; generatePrefix?: string }, a: SaveAnnotations): JsonObject {
  const annotations = legacyAnnotations(undefined, a);
  return {
    metadata: {
      ...(name.uid ? { name: name.uid } : { generateName: name.generatePrefix }),
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: model,
  };
}

/** `current` with the saved model and this save's folder, message and restore record; the rest of metadata kept. */
export function toUpdatedDashboard(current: Resource, model: JsonObject, a: SaveAnnotations): JsonObject {
  return { ...current, metadata: { ...current.metadata, annotations: legacyAnnotations(current.metadata.annotations, a) }, spec: model };
}

/** The deprecated numeric id the registry gave the object (0 when it has none). */
export function legacyIdOf(obj: Resource): number {
  return Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0);
}

export function folderUidOf(obj: Resource): string {
  return obj.metadata.annotations?.[Annotations.folder] ?? '';
}

const titleOf = (obj: Resource) => String(obj.spec.title ?? '');

/** `POST /api/dashboards/db` and restore: 200 {id, uid, url, status, version, slug, folderUid}. */
export interface PostDashboardResponse {
  id: number;
  uid: string;
  url: string;
  status: 'success';
  version: number;
  slug: string;
  folderUid: string;
}

export function toPostDashboardResponse(obj: Resource): PostDashboardResponse {
  const uid = obj.metadata.name;
  return {
    id: legacyIdOf(obj),
    uid,
    url: dashboardUrl(uid, titleOf(obj)),
    status: 'success',
    version: obj.metadata.generation,
    slug: slugify(titleOf(obj)),
    folderUid: folderUidOf(obj),
  };
}

/** The dashboard model as the legacy API shows it: the spec with its `id`, `uid` and `version`. */
export function toDashboardModel(obj: Resource): JsonObject {
  return { ...obj.spec, id: legacyIdOf(obj), uid: obj.metadata.name, version: obj.metadata.generation };
}

/** The anchor's zero time, for dates a record does not have. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** What `meta` says about the dashboard's folder; the root is "General". */
export interface FolderInfo {
  id: number;
  uid: string;
  title: string;
}

export const GENERAL_FOLDER: FolderInfo = { id: 0, uid: '', title: 'General' };

/** `meta` of `GET /api/dashboards/uid/:uid` (the anchor's DashboardMeta). */
export interface DashboardMeta extends DashboardRights {
  type: 'db';
  isStarred: boolean;
  slug: string;
  url: string;
  expires: string;
  created: string;
  updated: string;
  createdBy: string;
  updatedBy: string;
  version: number;
  hasAcl: boolean;
  isFolder: boolean;
  folderId: number;
  folderUid: string;
  folderTitle: string;
  folderUrl: string;
  provisioned: boolean;
  provisionedExternalId: string;
  /** The dashboard has an enabled public dashboard. */
  publicDashboardEnabled: boolean;
}

export interface DashboardFullWithMeta {
  dashboard: JsonObject;
  meta: DashboardMeta;
}

/** Who made the write that left `obj` as it is, and when: its updater, else its creator. */
export function writeOf(obj: Resource): { by: string; at: string } {
  const a = obj.metadata.annotations ?? {};
  return { by: a[Annotations.updatedBy] ?? a[Annotations.createdBy] ?? '', at: a[Annotations.updatedTimestamp] ?? obj.metadata.creationTimestamp };
}

/**
 * `GET /api/dashboards/uid/:uid`. `nameOf` turns a stored identity (`user:<uid>`) into the login the anchor shows.
 *
 * @example toDashboardFullWithMeta(obj, { folder: GENERAL_FOLDER, rights, isStarred: false, nameOf: () => 'admin' }).meta.folderTitle // 'General'
 */
export function toDashboardFullWithMeta(
  obj: Resource,
  ctx: { folder: FolderInfo; rights: DashboardRights; isStarred: boolean; nameOf: (identity: string) => string; publicDashboardEnabled?: boolean },
): DashboardFullWithMeta {
  const uid = obj.metadata.name;
  const a = obj.metadata.annotations ?? {};
  const updated = writeOf(obj);
  return {
    dashboard: toDashboardModel(obj),
    meta: {
      type: 'db',
      isStarred: ctx.isStarred,
      ...ctx.rights,
      slug: slugify(titleOf(obj)),
      url: dashboardUrl(uid, titleOf(obj)),
      expires: ZERO_TIME,
      created: obj.metadata.creationTimestamp,
      updated: updated.at,
      createdBy: ctx.nameOf(a[Annotations.createdBy] ?? ''),
      updatedBy: ctx.nameOf(updated.by),
      version: obj.metadata.generation,
      hasAcl: false,
      isFolder: false,
      folderId: ctx.folder.id,
      folderUid: ctx.folder.uid,
      folderTitle: ctx.folder.title,
      folderUrl: folderUrl(ctx.folder.uid, ctx.folder.title),
      // As the anchor: a provider allowing UI updates leaves its dashboards unmarked (the UI lets them be saved).
      provisioned: isProvisioned(a) && a[ProvisioningAnnotations.allowsEdits] !== 'true',
      provisionedExternalId: isProvisioned(a) ? (a[ProvisioningAnnotations.sourcePath] ?? '') : '',
      publicDashboardEnabled: ctx.publicDashboardEnabled ?? false,
    },
  };
}

/** The stored form of a legacy read: the model back to a spec, meta's folder back to the annotation. */
export function fromDashboardFullWithMeta(dto: DashboardFullWithMeta): { name: string; folderUid: string; generation: number; spec: JsonObject } {
  const { id: _id, uid, version, ...spec } = dto.dashboard;
  return { name: String(uid), folderUid: dto.meta.folderUid, generation: Number(version), spec };
}

/** `GET /api/dashboards/tags`: one record per tag with the number of dashboards carrying it, by term. */
export interface DashboardTagCloudItem {
  term: string;
  count: number;
}

/** The tag cloud from the registry's tag counts (by tag, each dashboard counted once per tag). */
export function toTagCloud(counts: readonly { tag: string; count: number }[]): DashboardTagCloudItem[] {
  return counts.map(({ tag, count }) => ({ term: tag, count }));
}

/** `DELETE /api/dashboards/uid/:uid`: the anchor's {title, message, uid}, with the spec's `id`. */
export function toDeleteResponse(obj: Resource): { title: string; message: string; uid: string; id: number } {
  return { title: titleOf(obj), message: `Dashboard ${titleOf(obj)} deleted`, uid: obj.metadata.name, id: legacyIdOf(obj) };
}

function withoutUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
