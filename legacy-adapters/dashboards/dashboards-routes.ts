import type { Request, Response } from 'express';
import { UNKNOWN_WRITER, writerLogins } from '../../pkg/auth/identity/identity-logins';
import { dashboardRights } from '../../pkg/auth/authorization/dashboard-rights';
import { StatusError } from '../../pkg/errors';
import type { Registry, RequestContext } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { starsOf } from '../../pkg/stars/stars';
import { effectivePreferences, preferencesSubjectOf } from '../../pkg/preferences/effective';
import { type AdapterDeps, positiveInt, positiveQueryInt } from '../shared';
import { dashboardUrl } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { PUBLIC_DASHBOARD_LABELS, publicDashboardKind } from '../../apis/publicdashboard.svc.app/v1/publicdashboard';
import { labelKey } from '../../pkg/meta';
import {
  badRequestData,
  type FolderInfo,
  folderUidOf,
  GENERAL_FOLDER,
  legacyIdOf,
  parseSaveCommand,
  toDashboardFullWithMeta,
  toDeleteResponse,
  toPostDashboardResponse,
  toSaveCommand,
  toTagCloud,
} from './dashboards-conversions';
import { versionNotFound } from './dashboards-errors';
import { dashboardKind, folderKind, saveDashboard } from './dashboards-save';
import { homeDashboard } from './home-dashboard';
import { restoreMessage, toVersionMeta } from './versions-conversions';

/** Spec §8: the versions listing returns at most this many, also when `limit` is missing or invalid. */
const DEFAULT_VERSIONS_LIMIT = 1000;

/**
 * `convert` with stored identities (`user:<uid>`, `service-account:<uid>`) shown as the logins the anchor shows
 * (see `writerLogins`). A first dry run names the identities it shows, and only those are read (not every user).
 *
 * @example res.json(await withLogins(req, deps, (nameOf) => toVersionMeta(version, nameOf)));
 */
async function withLogins<T>(req: Request, { users, accounts }: AdapterDeps, convert: (nameOf: (identity: string) => string) => T): Promise<T> {
  const shown = new Set<string>();
  convert((identity) => (shown.add(identity), ''));
  const loginOf = writerLogins(users, accounts, req.user!.orgId);
  const logins = new Map(await Promise.all([...shown].map(async (identity) => [identity, await loginOf(identity)] as const)));
  return convert((identity) => (identity === '' ? '' : logins.get(identity) ?? UNKNOWN_WRITER));
}

/** The folder `meta` names; one the caller may not read is shown by its uid alone. */
async function folderInfo(registry: Registry, ctx: RequestContext, uid: string): Promise<FolderInfo> {
  if (!uid) return GENERAL_FOLDER;
  try {
    const folder = await registry.get(ctx, folderKind, uid);
    return { id: legacyIdOf(folder), uid, title: String(folder.spec.title ?? '') };
  } catch (err) {
    if (err instanceof StatusError && (err.code === 403 || err.code === 404)) return { id: 0, uid, title: '' };
    throw err;
  }
}

/** Undefined for a dashboard the caller cannot read (gone, hidden, invalid uid); rethrows anything else. */
function ignoreUnreadable(err: unknown): undefined {
  if (err instanceof StatusError && [400, 403, 404, 422].includes(err.code)) return undefined;
  throw err;
}

/**
 * The legacy dashboard endpoints (spec §4.4) as clients of the Dashboard kind: each converts the legacy body, calls
 * the registry as the caller (its rules and access checks apply as under /apis) and converts the answer back.
 */
const get = (registry: Registry, ctx: RequestContext, uid: string) => registry.get(ctx, dashboardKind, uid);

export async function postDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const saved = await saveDashboard(registry, requestContext(req, registry), parseSaveCommand(req.body));
  res.json(toPostDashboardResponse(saved));
}

// The effective home dashboard preference (user, teams, org) when it names a dashboard the caller can read, else
// the built-in home.
export async function getHomeDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const { homeDashboardUID } = await effectivePreferences(deps.preferences, preferencesSubjectOf(req.user!));
  const home = homeDashboardUID ? await get(registry, requestContext(req, registry), homeDashboardUID).catch(ignoreUnreadable) : undefined;
  if (home) return void res.json({ redirectUri: dashboardUrl(home.metadata.name, String(home.spec.title ?? '')) });
  res.json(homeDashboard({ canEdit: req.user!.orgRole === 'Editor' || req.user!.orgRole === 'Admin' }));
}

export async function getDashboardTags(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  res.json(toTagCloud(await registry.tagCounts(requestContext(req, registry), [dashboardKind])));
}

/** Whether dashboard `uid` has an enabled public dashboard the caller may read (the anchor's meta.publicDashboardEnabled). */
async function hasEnabledPublicDashboard(registry: Registry, ctx: RequestContext, uid: string): Promise<boolean> {
  const found = await registry.list(ctx, publicDashboardKind, { labelSelector: `${PUBLIC_DASHBOARD_LABELS.dashboard}=${labelKey(uid)}` }).catch((err: unknown) => {
    if (err instanceof StatusError && err.code === 403) return { items: [] };
    throw err;
  });
  return found.items.some((p) => p.spec.dashboardUid === uid && p.spec.isEnabled);
}

/** `GET /api/dashboards/uid/:uid`: the dashboard with its meta, all of it from what is stored and the caller. */
export async function dashboardByUID(req: Request, deps: AdapterDeps): Promise<unknown> {
  const { registry } = deps;
  const ctx = requestContext(req, registry);
  const dashboard = await get(registry, ctx, String(req.params.uid));
  const [folder, rights, isStarred, publicDashboardEnabled] = await Promise.all([
    folderInfo(registry, ctx, folderUidOf(dashboard)),
    dashboardRights(req.access, req.user!.identity, dashboard.metadata.name),
    starsOf(registry).isStarred(req.user!, dashboardKind, dashboard),
    hasEnabledPublicDashboard(registry, ctx, dashboard.metadata.name),
  ]);
  return withLogins(req, deps, (nameOf) => toDashboardFullWithMeta(dashboard, { folder, rights, isStarred, nameOf, publicDashboardEnabled }));
}

export async function deleteDashboardByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const ctx = requestContext(req, registry);
  const dashboard = await get(registry, ctx, String(req.params.uid));
  await registry.delete(ctx, dashboardKind, dashboard.metadata.name, { preconditions: { uid: dashboard.metadata.uid } });
  res.json(toDeleteResponse(dashboard));
}

export async function getDashboardVersionsByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const limit = positiveQueryInt(req.query.limit, DEFAULT_VERSIONS_LIMIT);
  const start = positiveQueryInt(req.query.start, 0);
  const token = typeof req.query.continueToken === 'string' && req.query.continueToken !== '' ? req.query.continueToken : undefined;
  const page = await registry.history(requestContext(req, registry), dashboardKind, String(req.params.uid), { offset: start, limit, continue: token });
  const versions = await withLogins(req, deps, (nameOf) => page.items.map((v) => toVersionMeta(v.object, nameOf)));
  res.json({ continueToken: page.continue ?? '', versions });
}

export async function getDashboardVersionByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const ctx = requestContext(req, registry);
  const dashboard = await get(registry, ctx, String(req.params.uid));
  // A number that names no version is 404 (0 included, as the anchor); a version that is no number at all is 400.
  if (!/^\d{1,15}$/.test(String(req.params.version))) throw StatusError.badRequest('version is invalid');
  const version = Number(String(req.params.version));
  if (version === 0) throw versionNotFound(0, legacyIdOf(dashboard));
  const found = await registry.historyVersion(ctx, dashboardKind, dashboard.metadata.name, version);
  if (!found) throw versionNotFound(version, legacyIdOf(dashboard));
  res.json(await withLogins(req, deps, (nameOf) => toVersionMeta(found.object, nameOf, true)));
}

export async function restoreDashboardVersionByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const version = positiveInt((req.body as { version?: unknown } | undefined)?.version);
  if (version === undefined) throw badRequestData();
  const ctx = requestContext(req, registry);
  const dashboard = await get(registry, ctx, String(req.params.uid));
  const found = await registry.historyVersion(ctx, dashboardKind, dashboard.metadata.name, version);
  if (!found) throw new StatusError(404, 'NotFound', 'Dashboard version not found');
  // A save of the old model over the current version, in the current folder (the anchor's restore).
  const cmd = { ...toSaveCommand(found.object), id: legacyIdOf(dashboard), version: dashboard.metadata.generation, folderUid: folderUidOf(dashboard), message: restoreMessage(version) };
  const saved = await saveDashboard(registry, ctx, cmd, { restoredFrom: version });
  res.json(toPostDashboardResponse(saved));
}
