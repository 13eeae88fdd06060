import { SNAPSHOT_KEY } from '../../apis';
import { slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { StatusError } from '../../pkg/errors';
import { type JsonObject, Labels, type Resource, secondsAfter } from '../../pkg/meta';

/** `expires` 0 or absent: the anchor stores "never" as 50 years on. */
const NEVER_SECONDS = 50 * 365 * 24 * 3600;

/** The body of `POST /api/snapshots` (spec §4.7), bound. */
export interface CreateSnapshotCommand {
  dashboard: JsonObject;
  name: string;
  expires: number;
  external: boolean;
  key?: string;
  deleteKey?: string;
}

export const badSnapshotData = (message = 'bad request data') => StatusError.badRequest(message);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key or delete key a client chose: one the URLs and the lookups can carry, else 400. */
function keyOf(v: unknown, what: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !SNAPSHOT_KEY.test(v)) throw badSnapshotData(`${what} must be 1 to 63 letters, digits, ".", "-" or "_"`);
  return v;
}

/**
 * The create body as the anchor binds it: `dashboard` an object (required), `name` a string, `expires` whole seconds
 * (0: never), `external` a boolean, `key` and `deleteKey` strings (required for an external snapshot).
 */
export function parseCreateSnapshot(body: unknown): CreateSnapshotCommand {
  if (!isObject(body) || !isObject(body.dashboard)) throw badSnapshotData();
  const { name, expires, external } = body;
  if (name !== undefined && name !== null && typeof name !== 'string') throw badSnapshotData();
  if (expires !== undefined && expires !== null && !(typeof expires === 'number' && Number.isSafeInteger(expires) && expires >= 0)) {
    throw badSnapshotData('expires must be a whole number of seconds, 0 or more');
  }
  if (typeof expires === 'number' && secondsAfter(Date.now(), expires) === undefined) throw badSnapshotData('expires lies past the year 9999');
  if (external !== undefined && external !== null && typeof external !== 'boolean') throw badSnapshotData();
  const cmd: CreateSnapshotCommand = {
    dashboard: body.dashboard as JsonObject,
    name: typeof name === 'string' && name.trim() !== '' ? name : 'Unnamed snapshot',
    expires: typeof expires === 'number' ? expires : 0,
    external: external === true,
    key: keyOf(body.key, 'key'),
    deleteKey: keyOf(body.deleteKey, 'deleteKey'),
  };
  if (cmd.external && (!cmd.key || !cmd.deleteKey)) throw badSnapshotData('key and deleteKey are required for an external snapshot');
  return cmd;
}

/** When a snapshot made at `now` (ms) expires, as RFC 3339. */
export function expiryOf(expiresSeconds: number, now = Date.now()): string {
  // parseCreateSnapshot refused an `expires` past the last timestamp; "never" is 50 years on.
  return secondsAfter(now, expiresSeconds > 0 ? expiresSeconds : NEVER_SECONDS)!;
}

/** `<base>/<path>` with exactly one slash between them. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/** A list item of `GET /api/dashboard/snapshots` (spec §2.9): no dashboard, no delete key. */
export interface SnapshotListItem {
  id: number;
  name: string;
  key: string;
  orgId: number;
  userId: number;
  external: boolean;
  externalUrl: string;
  expires: string;
  created: string;
  updated: string;
}

const createdOf = (s: Resource) => s.metadata.creationTimestamp ?? '';
/** The snapshot's expiry; one stored without (written through /apis) shows the anchor's "never". */
export const expiresOf = (s: Resource) => (typeof s.spec.expires === 'string' ? s.spec.expires : expiryOf(0, Date.parse(createdOf(s))));

export function toSnapshotListItem(s: Resource, orgId: number, userIdOf: (identity: string) => number): SnapshotListItem {
  const a = s.metadata.annotations ?? {};
  return {
    id: Number(s.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
    name: String(s.spec.name ?? ''),
    key: String(s.spec.key ?? ''),
    orgId,
    userId: userIdOf(a['svc.app/createdBy'] ?? ''),
    external: s.spec.external === true,
    externalUrl: typeof s.spec.externalUrl === 'string' ? s.spec.externalUrl : '',
    expires: expiresOf(s),
    created: createdOf(s),
    updated: a['svc.app/updatedTimestamp'] ?? createdOf(s),
  };
}

/** `GET /api/snapshots/:key`: the dashboard and the anchor's snapshot meta. */
export function toSnapshotRead(s: Resource, dashboard: JsonObject) {
  return {
    dashboard,
    meta: {
      isSnapshot: true,
      type: 'snapshot',
      canSave: false,
      canEdit: false,
      canStar: false,
      slug: slugify(typeof dashboard.title === 'string' ? dashboard.title : String(s.spec.name ?? '')),
      created: createdOf(s),
      expires: expiresOf(s),
    },
  };
}

/** The anchor's answer to a delete (spec §4.7: with the snapshot's id). */
export const deletedSnapshot = (s: Resource) => ({
  message: "Snapshot deleted. It might take an hour before it's cleared from any CDN caches.",
  id: Number(s.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
});
