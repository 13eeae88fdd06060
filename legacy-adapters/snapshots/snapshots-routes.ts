import type { Request, Response } from 'express';
import { DELETE_KEY_LABEL, dashboardKind as typedDashboardKind, deleteKeyLabel, isExpired, KEY_LABEL, randomSnapshotKey, SECURE_DASHBOARD, SNAPSHOT_KEY, snapshotKind as typedSnapshotKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { Annotations, anyKind, type JsonObject, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import { deleteKeyDigest, deleteKeyMatches } from '../../pkg/snapshots/delete-key';
import { type AdapterDeps, positiveQueryInt, queryString, requestContext, usersByUid } from '../shared';
import { deletedSnapshot, expiryOf, joinUrl, parseCreateSnapshot, toSnapshotListItem, toSnapshotRead } from './snapshots-conversions';

const snapshotKind = anyKind(typedSnapshotKind);
const dashboardKind = anyKind(typedDashboardKind);
/** Spec §8: the list returns at most this many, also when `limit` is missing or invalid. */
const DEFAULT_LIMIT = 1000;
const PAGE = 500;
/** A name the legacy API gives a snapshot: its key, when the key is also a valid object name. */
const NAME = /^[A-Za-z0-9_-]{1,40}$/;

const snapshotNotFound = () => new StatusError(404, 'NotFound', 'Snapshot not found');
const readNotFound = () => new StatusError(404, 'NotFound', 'Dashboard snapshot not found');

/** The server's own context in a namespace: for requests authorized by a key rather than by the caller's rights. */
const serverContext = (namespace: string): RequestContext => ({ requester: { identity: 'service:snapshots' }, namespace, fieldManager: 'snapshots' });

/** The live snapshot holding `key`, in any organization; undefined for a malformed key. */
async function byKey(registry: Registry, key: string): Promise<Resource | undefined> {
  if (!SNAPSHOT_KEY.test(key)) return undefined;
  return (await registry.findByLabels(snapshotKind, { [KEY_LABEL]: key }, 1))[0];
}

/** `Registry.secureValues` (KindRegistration.secureValues), which the encryption at rest of pkg/secrets brings. */
type SecureValuesReader = { secureValues?: (kind: typeof snapshotKind, namespace: string, name: string) => Promise<Record<string, string>> };

/**
 * The snapshot's dashboard JSON, decrypted by the registry's secure values; until a registry reads those, the value
 * as stored in the spec.
 */
async function dashboardOf(registry: Registry, s: Resource): Promise<JsonObject> {
  const reader = (registry as Registry & SecureValuesReader).secureValues;
  const secure = reader ? await reader.call(registry, snapshotKind, s.metadata.namespace!, s.metadata.name) : (s.spec.secure as Record<string, string> | undefined);
  const text = secure?.[SECURE_DASHBOARD];
  return text ? (JSON.parse(text) as JsonObject) : {};
}

/** Whether the dashboard `uid` exists in the namespace and the caller may read it. */
async function readableDashboard(registry: Registry, ctx: RequestContext, uid: string): Promise<boolean> {
  try {
    await registry.get(ctx, dashboardKind, uid);
    return true;
  } catch (err) {
    if (err instanceof StatusError && [400, 403, 404].includes(err.code)) return false;
    throw err;
  }
}

/**
 * `POST /api/snapshots` (spec §4.7): a Snapshot object in the caller's organization, its dashboard encrypted at rest,
 * its delete key stored as a digest and answered once, here.
 */
export async function createSnapshot(req: Request, res: Response, { registry, config }: AdapterDeps): Promise<void> {
  const settings = config.snapshots;
  if (!settings.enabled) throw new StatusError(403, 'Forbidden', 'Dashboard Snapshots are disabled');
  const cmd = parseCreateSnapshot(req.body);
  if (cmd.external && !settings.external_enabled) throw new StatusError(403, 'Forbidden', 'External dashboard creation is disabled');
  const ctx = requestContext(req, registry);
  const uid = typeof cmd.dashboard.uid === 'string' && cmd.dashboard.uid !== '' ? cmd.dashboard.uid : undefined;
  // A snapshot of a stored dashboard names one the caller can read (so a delete can ask who may write it).
  if (uid && !(await readableDashboard(registry, ctx, uid))) throw StatusError.badRequest('Dashboard not found');
  const key = cmd.key ?? randomSnapshotKey();
  const deleteKey = cmd.deleteKey ?? randomSnapshotKey();
  const base = cmd.external ? settings.external_snapshot_url : config.server.root_url;
  const url = joinUrl(base, `dashboard/snapshot/${key}`);
  const deleteUrl = joinUrl(base, `api/snapshots-delete/${deleteKey}`);
  const created = await registry.create(ctx, snapshotKind, {
    apiVersion: `${snapshotKind.group}/${snapshotKind.version}`,
    kind: snapshotKind.kind,
    metadata: NAME.test(key) ? { name: key } : { generateName: 'snapshot-' },
    spec: {
      name: cmd.name,
      key,
      expires: expiryOf(cmd.expires),
      external: cmd.external,
      ...(cmd.external ? { externalUrl: url, externalDeleteUrl: deleteUrl } : {}),
      ...(uid ? { dashboardUid: uid } : {}),
      deleteKeyDigest: deleteKeyDigest(deleteKey),
      secure: { [SECURE_DASHBOARD]: JSON.stringify(cmd.dashboard) },
    },
  });
  res.json({ key, deleteKey, url, deleteUrl, id: deletedSnapshot(created).id });
}

/** `GET /api/dashboard/snapshots`: the caller's own snapshots (an org Admin's: the organization's), by name. */
export async function searchSnapshots(req: Request, res: Response, { registry, users }: AdapterDeps): Promise<void> {
  const query = (queryString(req.query.query) ?? '').toLowerCase();
  const limit = positiveQueryInt(req.query.limit, DEFAULT_LIMIT);
  const ctx = requestContext(req, registry);
  const found: Resource[] = [];
  let next: string | undefined;
  do {
    const page = await registry.list(ctx, snapshotKind, { limit: PAGE, continue: next });
    found.push(...page.items.filter((s) => !isExpired(s.spec) && String(s.spec.name ?? '').toLowerCase().includes(query)));
    next = page.metadata.continue;
  } while (next);
  const orgId = req.user!.orgId;
  const ranked = found.map((s) => ({ s, item: toSnapshotListItem(s, orgId, () => 0) }));
  ranked.sort((a, b) => a.item.name.localeCompare(b.item.name) || a.item.key.localeCompare(b.item.key));
  const page = ranked.slice(0, limit).map(({ s }) => s);
  // The creators of the answered snapshots only, in one query.
  const uidOf = (identity: string) => (identity.startsWith('user:') ? identity.slice('user:'.length) : undefined);
  const creators = await usersByUid(users, page.flatMap((s) => uidOf(s.metadata.annotations?.[Annotations.createdBy] ?? '') ?? []));
  res.json(page.map((s) => toSnapshotListItem(s, orgId, (identity) => creators.get(uidOf(identity) ?? '')?.id ?? 0)));
}

/** `GET /api/snapshots/:key`: no credentials needed, the key is the secret; an expired snapshot is gone. */
export async function getSnapshot(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const snapshot = await byKey(registry, String(req.params.key));
  if (!snapshot || isExpired(snapshot.spec)) throw readNotFound();
  res.set('Cache-Control', 'public, max-age=3600');
  res.json(toSnapshotRead(snapshot, await dashboardOf(registry, snapshot)));
}

/**
 * `DELETE /api/snapshots/:key`: a snapshot of the caller's organization, by its creator (or an org Admin), or by
 * who may write the dashboard it was taken of. When that dashboard no longer exists only the creator may (where the
 * anchor let anyone: its advisory).
 */
export async function deleteSnapshot(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const ctx = requestContext(req, registry);
  const found = await byKey(registry, String(req.params.key));
  // Another organization's snapshot is not found here: the caller learns nothing of it.
  if (!found || found.metadata.namespace !== ctx.namespace) throw snapshotNotFound();
  const can = (action: string, scope: string) => req.access?.can(action, scope) ?? Promise.resolve(false);
  const source = typeof found.spec.dashboardUid === 'string' ? found.spec.dashboardUid : '';
  const allowed =
    (await can('snapshots:delete', `snapshots:uid:${found.metadata.name}`)) ||
    (source !== '' && (await registry.exists(dashboardKind, ctx.namespace, source)) && (await can('dashboards:write', `dashboards:uid:${source}`)));
  if (!allowed) throw new StatusError(403, 'Forbidden', 'Access denied to this snapshot');
  await deleteFound(registry, found);
  res.json(deletedSnapshot(found));
}

/** `GET /api/snapshots-delete/:deleteKey` (spec §5.5): no credentials, the delete key authorizes it. */
export async function deleteSnapshotByDeleteKey(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const deleteKey = String(req.params.deleteKey);
  if (!SNAPSHOT_KEY.test(deleteKey)) throw snapshotNotFound();
  const digest = deleteKeyDigest(deleteKey);
  const found = (await registry.findByLabels(snapshotKind, { [DELETE_KEY_LABEL]: deleteKeyLabel(digest) }, 5)).find((s) => deleteKeyMatches(deleteKey, s.spec.deleteKeyDigest as string | undefined));
  if (!found) throw snapshotNotFound();
  await deleteFound(registry, found);
  res.json(deletedSnapshot(found));
}

/** Deletes the snapshot read, not one made since under its name; gone meanwhile is "not found". */
async function deleteFound(registry: Registry, found: Resource): Promise<void> {
  try {
    await registry.delete(serverContext(found.metadata.namespace!), snapshotKind, found.metadata.name, { preconditions: { uid: found.metadata.uid } });
  } catch (err) {
    if (err instanceof StatusError && (err.code === 404 || err.code === 409)) throw snapshotNotFound();
    throw err;
  }
}

/** `GET /api/snapshot/shared-options`: the snapshot settings a frontend offers. */
export function getSharingOptions(_req: Request, res: Response, { config }: AdapterDeps): void {
  const s = config.snapshots;
  res.json({ snapshotEnabled: s.enabled, externalSnapshotURL: s.external_snapshot_url, externalSnapshotName: s.external_snapshot_name, externalEnabled: s.external_enabled });
}
