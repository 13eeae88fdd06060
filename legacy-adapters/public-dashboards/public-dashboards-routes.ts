import { randomInt } from 'node:crypto';
import type { Request, Response } from 'express';
import { dashboardKind as typedDashboardKind, PUBLIC_DASHBOARD_LABELS, publicDashboardKind as typedPublicDashboardKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { Annotations, anyKind, labelKey, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import { type AdapterDeps, positiveQueryInt, queryString, requestContext } from '../shared';
import {
  isValidAccessToken,
  isValidUid,
  parsePublicDashboardDTO,
  PublicDashboardErrors as Errors,
  type PublicDashboardListItem,
  toListItem,
  toListPage,
  toNewSpec,
  toPublicDashboardJSON,
  toUpdatedSpec,
} from './public-dashboards-conversions';

export const publicDashboardKind = anyKind(typedPublicDashboardKind);
export const dashboardKind = anyKind(typedDashboardKind);
/** The anchor's page size when `perpage` is missing or not positive. */
const DEFAULT_PER_PAGE = 1000;
const PAGE = 500;

/** A uid as the anchor generates them: 14 letters and digits. */
function newUid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 14 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** The caller's namespace, without the caller's access checks: for what the route's guard already decided. */
const unchecked = (ctx: RequestContext): RequestContext => ({ ...ctx, access: undefined });

/** Turns stored identities (`user:<uid>`) into the numeric user ids the anchor shows; 0 for anything else. */
async function idsOf(deps: AdapterDeps, objects: readonly Resource[]): Promise<(identity: string) => number> {
  const identities = new Set(objects.flatMap((o) => [o.metadata.annotations?.[Annotations.createdBy] ?? '', o.metadata.annotations?.[Annotations.updatedBy] ?? '']));
  const ids = new Map<string, number>();
  for (const identity of identities) {
    if (!identity.startsWith('user:')) continue;
    const user = await deps.users.userByUid(identity.slice('user:'.length));
    if (user) ids.set(identity, user.id);
  }
  return (identity) => ids.get(identity) ?? 0;
}

async function answer(res: Response, deps: AdapterDeps, p: Resource): Promise<void> {
  res.json(toPublicDashboardJSON(p, await idsOf(deps, [p])));
}

/** The public dashboard of dashboard `uid` that `ctx` may read, if any. */
async function ofDashboard(registry: Registry, ctx: RequestContext, uid: string): Promise<Resource | undefined> {
  const found = await registry.list(ctx, publicDashboardKind, { labelSelector: `${PUBLIC_DASHBOARD_LABELS.dashboard}=${labelKey(uid)}` });
  return found.items.find((p) => p.spec.dashboardUid === uid);
}

/** 404 "Dashboard not found" unless dashboard `uid` exists in the caller's organization (the anchor's FindDashboard). */
async function requireDashboard(registry: Registry, ctx: RequestContext, uid: string): Promise<void> {
  if (!(await registry.exists(dashboardKind, ctx.namespace, uid))) throw Errors.dashboardNotFound();
}

/**
 * `GET /api/dashboards/public-dashboards`: the organization's public dashboards whose dashboard the caller may read,
 * with its title, by title, paged (`page` from 1, `perpage` 1000 when missing); `query` is a case-insensitive
 * substring of the title.
 */
export async function listPublicDashboards(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const perPage = positiveQueryInt(req.query.perpage, DEFAULT_PER_PAGE);
  const page = positiveQueryInt(req.query.page, 1);
  const query = (queryString(req.query.query) ?? '').toLowerCase();
  const ctx = requestContext(req, registry);
  const items: PublicDashboardListItem[] = [];
  let next: string | undefined;
  do {
    const found = await registry.list(ctx, publicDashboardKind, { limit: PAGE, continue: next });
    for (const p of found.items) {
      const dashboard = await registry.get(ctx, dashboardKind, String(p.spec.dashboardUid)).catch(unreadable);
      if (dashboard && String(dashboard.spec.title ?? '').toLowerCase().includes(query)) items.push(toListItem(p, dashboard));
    }
    next = found.metadata.continue;
  } while (next);
  res.json(toListPage(items, page, perPage));
}

/** Undefined for a dashboard gone or hidden from the caller; rethrows anything else. */
function unreadable(err: unknown): undefined {
  if (err instanceof StatusError && [403, 404].includes(err.code)) return undefined;
  throw err;
}

/** `GET /api/dashboards/uid/:dashboardUid/public-dashboards`. */
export async function getPublicDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const dashboardUid = String(req.params.dashboardUid);
  if (!isValidUid(dashboardUid)) throw Errors.identifierNotSet();
  const found = await ofDashboard(deps.registry, requestContext(req, deps.registry), dashboardUid);
  // E-mail sharing is the anchor's licensed feature: without it such a public dashboard is not shown.
  if (!found || found.spec.share === 'email') throw Errors.notFound();
  await answer(res, deps, found);
}

/** `POST /api/dashboards/uid/:dashboardUid/public-dashboards`: one per dashboard (400 "Dashboard is already public"). */
export async function createPublicDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const dashboardUid = String(req.params.dashboardUid);
  if (!isValidUid(dashboardUid)) throw Errors.invalidUid();
  const dto = parsePublicDashboardDTO(req.body);
  if (dto.uid !== undefined && !isValidUid(dto.uid)) throw Errors.invalidUid();
  if (dto.accessToken !== undefined && !isValidAccessToken(dto.accessToken)) throw Errors.invalidAccessToken();
  const ctx = requestContext(req, registry);
  await requireDashboard(registry, ctx, dashboardUid);
  const created = await registry.create(ctx, publicDashboardKind, {
    apiVersion: `${publicDashboardKind.group}/${publicDashboardKind.version}`,
    kind: publicDashboardKind.kind,
    metadata: { name: dto.uid ?? newUid() },
    spec: toNewSpec(dashboardUid, dto),
  });
  await answer(res, deps, created);
}

/** `PATCH /api/dashboards/uid/:dashboardUid/public-dashboards/:uid`: the fields the body names. */
export async function updatePublicDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const dashboardUid = String(req.params.dashboardUid);
  const uid = String(req.params.uid);
  if (!isValidUid(dashboardUid) || !isValidUid(uid)) throw Errors.invalidUid();
  const dto = parsePublicDashboardDTO(req.body);
  const ctx = requestContext(req, registry);
  await requireDashboard(registry, ctx, dashboardUid);
  // Checked in the update's locked read-modify-write: it belongs to the dashboard of the path, else "Invalid Uid".
  const updated = await registry.patch(ctx, publicDashboardKind, uid, (current) => {
    if (current.spec.dashboardUid !== dashboardUid) throw Errors.invalidUid();
    return { ...current, spec: toUpdatedSpec(current.spec, dto) };
  });
  await answer(res, deps, updated);
}

/** `DELETE /api/dashboards/uid/:dashboardUid/public-dashboards/:uid`: 200 with an empty body, as the anchor. */
export async function deletePublicDashboard(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const uid = String(req.params.uid);
  const dashboardUid = String(req.params.dashboardUid);
  if (!isValidUid(uid) || !isValidUid(dashboardUid)) throw Errors.invalidUid();
  const ctx = requestContext(req, registry);
  const found = await registry.get(unchecked(ctx), publicDashboardKind, uid);
  if (found.spec.dashboardUid !== dashboardUid) throw Errors.invalidUid();
  await registry.delete(ctx, publicDashboardKind, uid, { preconditions: { uid: found.metadata.uid } });
  res.status(200).end();
}
