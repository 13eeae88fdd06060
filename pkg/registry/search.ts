import { type KindRegistration, Labels, type Resource } from '../meta';
import type { SearchFields, SearchHit, SearchPosition, Storage } from '../../storage';
import type { RequestContext } from './context';
import { typeOf } from './folder-tree';

/**
 * Search over the kinds that declare `search` (KindRegistration.search): storage keeps their index, this module
 * pages it for one caller, keeping only what the caller may read.
 */

/** What a search asks for; every condition given must hold. */
export interface SearchRequest {
  /** The searchable kinds to search; others are ignored. */
  kinds: readonly KindRegistration[];
  /** Case-insensitive substring of the title. */
  title?: string;
  /** Hits carry every one of these tags. */
  tags?: readonly string[];
  /** Hits are in one of these folders ('' = the root). */
  folders?: readonly string[];
  /** Hits have one of these names. */
  names?: readonly string[];
  /** Title order. */
  order: 'asc' | 'desc';
  /** Hits of each kind come before the next kind's (in `kinds` order) instead of being merged by title. */
  groupByKind?: boolean;
  /** The verb the caller needs on each hit (default `read`): `<access.resource>:<verb>`. */
  verb?: 'read' | 'write';
  /** Visible hits to skip (earlier pages). */
  offset: number;
  limit: number;
}

export interface SearchResult extends SearchHit {
  kind: KindRegistration;
}

/** Index rows read per round trip while a page is being filled: denied hits make a page read more than it shows. */
const MIN_BATCH = 100;
const MAX_BATCH = 5000;

/**
 * An object's row in the search index, or undefined when its kind is not searchable.
 *
 * @example searchFieldsOf(dashboardKind, dashboard); // { title: 'API latency', tags: ['prod'], internalId: 7 }
 */
export function searchFieldsOf(kind: KindRegistration, obj: Resource): SearchFields | undefined {
  if (!kind.search) return undefined;
  const tags = kind.search.tags?.(obj) ?? [];
  return {
    title: kind.search.title(obj),
    tags: tags.filter((t): t is string => typeof t === 'string'),
    internalId: Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0) || 0,
  };
}

/**
 * The page of hits the caller may see: hits it may not read are dropped before paging, so page N holds the N-th
 * `limit` visible hits, and a page is filled from further index rows when hits were dropped.
 *
 * @example
 *   const hits = await searchVisible(storage, ctx, { kinds: [folderKind, dashboardKind], title: 'lat', order: 'asc', offset: 0, limit: 50 });
 */
export async function searchVisible(storage: Storage, ctx: RequestContext, req: SearchRequest): Promise<SearchResult[]> {
  const kinds = req.kinds.filter((k) => k.search);
  // Nothing will be dropped: the database skips the earlier pages and reads this one's rows only.
  if (!req.groupByKind && (await seesEvery(ctx, kinds, req.verb ?? 'read'))) return pageOf(storage, ctx, req, kinds);
  const sections = req.groupByKind ? kinds.map((k) => [k]) : [kinds];
  const page = { skip: req.offset, out: [] as SearchResult[] };
  for (const section of sections) {
    await fillFrom(storage, ctx, req, section, page);
    if (page.out.length >= req.limit) break;
  }
  return page.out;
}

/** The page of `kinds`' hits at `req.offset`, read as one page of the index (for a caller who sees every hit). */
async function pageOf(storage: Storage, ctx: RequestContext, req: SearchRequest, kinds: readonly KindRegistration[]): Promise<SearchResult[]> {
  const byType = new Map(kinds.map((k) => [`${k.group}/${k.plural}`, k]));
  const { hits } = await storage.search({ ...searchQuery(ctx, req, kinds), offset: req.offset, limit: req.limit });
  return hits.map((h) => ({ ...h, kind: byType.get(`${h.key.group}/${h.key.resource}`)! }));
}

/** The index query of `req` over `kinds`, without its paging. */
const searchQuery = (ctx: RequestContext, req: SearchRequest, kinds: readonly KindRegistration[]) => ({
  namespace: ctx.namespace,
  types: kinds.map(typeOf),
  title: req.title,
  tags: req.tags,
  folders: req.folders,
  names: req.names,
  order: req.order,
});

/** Reads `section`'s hits in order into `page`, skipping `page.skip` visible ones first. */
async function fillFrom(storage: Storage, ctx: RequestContext, req: SearchRequest, section: readonly KindRegistration[], page: { skip: number; out: SearchResult[] }) {
  const byType = new Map(section.map((k) => [`${k.group}/${k.plural}`, k]));
  let after: SearchPosition | undefined;
  for (;;) {
    const wanted = page.skip + req.limit - page.out.length;
    const batch = Math.min(Math.max(wanted, MIN_BATCH), MAX_BATCH);
    const { hits, more } = await storage.search({ ...searchQuery(ctx, req, section), after, limit: batch });
    const found = hits.map((h) => ({ ...h, kind: byType.get(`${h.key.group}/${h.key.resource}`)! }));
    for (const hit of await visible(ctx, req.verb ?? 'read', found)) {
      if (page.skip > 0) page.skip--;
      else if (page.out.length < req.limit) page.out.push(hit);
    }
    if (!more || page.out.length >= req.limit) return;
    after = hits[hits.length - 1].position;
  }
}

/** The hits the caller may `verb`, in their order. Kinds without `access` are decided by the org role alone. */
async function visible(ctx: RequestContext, verb: string, hits: readonly SearchResult[]): Promise<SearchResult[]> {
  if (!ctx.access) return [...hits];
  const allowed = new Set<SearchResult>();
  for (const resource of new Set(hits.map((h) => h.kind.access?.resource))) {
    const ofKind = hits.filter((h) => h.kind.access?.resource === resource);
    // The hit's folder goes with its scope: inheritance is resolved without reading the object again.
    const target = (h: SearchResult) => (h.kind.inFolder ? { scope: `${resource}:uid:${h.key.name}`, folder: h.folder } : `${resource}:uid:${h.key.name}`);
    const ok = resource ? await ctx.access.filter(`${resource}:${verb}`, ofKind, target) : ofKind;
    for (const h of ok) allowed.add(h);
  }
  return hits.filter((h) => allowed.has(h));
}

/**
 * The tags of the searchable objects of `kinds` the caller may read, with how many objects carry each, by tag (byte
 * order): counted by the database when the caller reads every object of the kinds, else over the search index's
 * visible hits (titles and tags only, never the objects).
 *
 * @example await visibleTagCounts(storage, ctx, [dashboardKind]); // [{ tag: 'prod', count: 2 }, { tag: 'web', count: 1 }]
 */
export async function visibleTagCounts(storage: Storage, ctx: RequestContext, kinds: readonly KindRegistration[]): Promise<{ tag: string; count: number }[]> {
  const searchable = kinds.filter((k) => k.search);
  if (await seesEvery(ctx, searchable, 'read')) return storage.tagCounts({ namespace: ctx.namespace, types: searchable.map(typeOf) });
  const counts = new Map<string, number>();
  for (const hit of await searchVisible(storage, ctx, { kinds: searchable, order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER })) {
    for (const tag of new Set(hit.tags)) if (tag !== '') counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  return [...counts].sort(([a], [b]) => byteOrder(a, b)).map(([tag, count]) => ({ tag, count }));
}

/** Whether the caller may `verb` every object of these kinds (a wildcard grant, or no check at all). */
async function seesEvery(ctx: RequestContext, kinds: readonly KindRegistration[], verb: string): Promise<boolean> {
  for (const k of kinds) {
    if (ctx.access && k.access && !(await ctx.access.can(`${k.access.resource}:${verb}`, `${k.access.resource}:uid:*`))) return false;
  }
  return true;
}
