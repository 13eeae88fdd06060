import type { Request, Response } from 'express';
import { dashboardKind, folderKind } from '../../apis';
import { anyKind, type KindRegistration } from '../../pkg/meta';
import type { Registry, RequestContext, SearchResult } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { starsOf } from '../../pkg/stars/stars';
import { type AdapterDeps, findByInternalIds, folderUrl } from '../shared';
import { type FolderRef, type HitType, parseSearchParams, type SearchParams, toHit } from './search-conversions';

const folders = anyKind(folderKind);
const dashboards = anyKind(dashboardKind);

const hitType = (kind: KindRegistration): HitType => (kind.isFolder ? 'dash-folder' : 'dash-db');

/** The kinds a search reads, folders first (the anchor lists folders first when no sort is asked). */
function kindsOf(p: SearchParams): KindRegistration[] {
  if (p.starred) return p.type === 'dash-folder' ? [] : [dashboards];
  if (p.type === 'dash-db') return [dashboards];
  if (p.type === 'dash-folder') return [folders];
  return [folders, dashboards];
}

/** The names a search is limited to: `dashboardUIDs` (with `dashboardIds`' names), and with `starred` the caller's starred dashboards. */
function namesOf(p: SearchParams, starred: readonly string[]): string[] | undefined {
  if (!p.starred) return p.dashboardUIDs;
  return p.dashboardUIDs ? starred.filter((n) => p.dashboardUIDs!.includes(n)) : [...starred];
}

/** The names of the objects of `kind` with these legacy ids, among those the caller may read. */
const namesOfIds = async (registry: Registry, ctx: RequestContext, kind: KindRegistration, ids: readonly number[]) =>
  (await findByInternalIds(registry, ctx, kind, ids)).map((o) => o.metadata.name);

/**
 * The deprecated id filters as the uid ones: `dashboardIds` adds its dashboards to `dashboardUIDs` (the anchor ORs
 * them), `folderIds` (0 the root) narrows `folderUIDs` (the anchor ANDs them). An id that names nothing matches nothing.
 */
async function withIdFilters(registry: Registry, ctx: RequestContext, p: SearchParams): Promise<SearchParams> {
  let out = p;
  if (p.dashboardIds) out = { ...out, dashboardUIDs: [...(p.dashboardUIDs ?? []), ...(await namesOfIds(registry, ctx, dashboards, p.dashboardIds))] };
  if (p.folderIds) {
    const named = [...(p.folderIds.includes(0) ? [''] : []), ...(await namesOfIds(registry, ctx, folders, p.folderIds))];
    out = { ...out, folderUIDs: p.folderUIDs ? p.folderUIDs.filter((f) => named.includes(f)) : named };
  }
  return out;
}

/**
 * The folders the hits are in, by uid, as the caller may see them: a folder it may not read is its uid alone (as the
 * dashboard's own meta shows it), so its title never leaks through a hit inside it.
 */
async function foldersOf(registry: Registry, ctx: RequestContext, hits: readonly SearchResult[]): Promise<Map<string, FolderRef>> {
  const names = [...new Set(hits.map((h) => h.folder).filter((f) => f !== ''))];
  if (names.length === 0) return new Map();
  const found = await registry.search(ctx, { kinds: [folders], names, order: 'asc', offset: 0, limit: names.length });
  const readable = new Map<string, FolderRef>(found.map((f) => [f.key.name, { id: f.internalId, uid: f.key.name, title: f.title, url: folderUrl(f.key.name, f.title) }]));
  return new Map(names.map((n) => [n, readable.get(n) ?? { uid: n }]));
}

/**
 * `GET /api/search`: folders and dashboards of the caller's org that it may see, from the registry's search index
 * (pkg/registry/search.ts), as the anchor's hit list.
 */
export async function search(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const stars = starsOf(registry);
  const ctx = requestContext(req, registry);
  const p = await withIdFilters(registry, ctx, parseSearchParams(req.query as Record<string, unknown>));
  const found = (starred: readonly string[]) =>
    registry.search(ctx, {
      kinds: kindsOf(p),
      title: p.query || undefined,
      tags: p.tags.length ? p.tags : undefined,
      folders: p.folderUIDs,
      names: namesOf(p, starred),
      order: p.sort === 'alpha-desc' ? 'desc' : 'asc',
      groupByKind: p.sort === undefined,
      verb: p.permission === 'Edit' ? 'write' : 'read',
      offset: (p.page - 1) * p.limit,
      limit: p.limit,
    });
  const starring = stars.starredNames(req.user!, dashboards);
  // Only `starred=true` needs the stars before searching; otherwise both run at once.
  const [hits, starred] = p.starred ? await starring.then(async (s) => [await found(s), s] as const) : await Promise.all([found([]), starring]);
  const inFolders = await foldersOf(registry, ctx, hits);
  const isStarred = new Set(starred);
  res.json(
    hits.map((h) =>
      toHit(
        { type: hitType(h.kind), name: h.key.name, title: h.title, tags: h.tags, internalId: h.internalId },
        !h.kind.isFolder && isStarred.has(h.key.name),
        inFolders.get(h.folder),
      ),
    ),
  );
}
