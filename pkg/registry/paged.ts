import type { JsonObject, KindField, KindRegistration, Resource } from '../meta';
import type { LabelFilter, PageQuery, Storage, StoredObject } from '../../storage';
import type { RequestContext } from './context';
import { KindAccess } from './access';
import { typeOf } from './folder-tree';

/**
 * Paged lists selected, matched, sorted and counted by the database, over the fields a kind declares
 * (KindRegistration.fields): the legacy API's searches (users by login, teams by name, an organization's members)
 * read one page and one number, never the whole collection.
 */

type Scalar = string | number | boolean;

/** What a page asks for; every condition given must hold. */
export interface PageRequest {
  /** A case-insensitive substring of one of these fields; an empty text matches every object. */
  query?: { text: string; fields: readonly string[] };
  /** Fields holding exactly this value, or one of these values. */
  where?: Readonly<Record<string, Scalar | readonly Scalar[]>>;
  /** Labels holding this value, or one of these values. */
  labels?: Readonly<Record<string, string | readonly string[]>>;
  /** Only these names. */
  names?: readonly string[];
  /** Not these names. */
  excludeNames?: readonly string[];
  /** Only objects in one of these folders ('' = the root). */
  folders?: readonly string[];
  /** Only objects named as an object of `kind` in `namespace` is named (the users who are members of an organization). */
  namedAs?: { kind: KindRegistration; namespace: string };
  /** Fields, first first; the name breaks ties. */
  orderBy?: readonly string[];
  /** The order reversed, the name's included. */
  descending?: boolean;
  /** Visible matches to skip (earlier pages). */
  offset?: number;
  /** At most this many; undefined = every match. */
  limit?: number;
  /**
   * Only the objects the caller may do `action` on, at `scope(object)` (for kinds whose access is not the registry's,
   * such as teams by their numeric id). A caller holding the action on `every` (a wildcard scope) is paged by the
   * database; another has every match read in order and filtered. Without it, a kind declaring `access` is filtered by that.
   */
  visibleTo?: { action: string; every: string; scope: (obj: Resource) => string };
}

export interface PageResult<Spec = JsonObject> {
  items: Resource<Spec>[];
  /** Every visible match, across pages. */
  totalCount: number;
}

function field(kind: KindRegistration, name: string): Required<KindField> {
  const f = kind.fields?.[name];
  if (!f) throw new Error(`${kind.kind} declares no field "${name}" (KindRegistration.fields)`);
  return { path: f.path, as: f.as ?? 'text' };
}

/** The storage query of a request, without its paging. */
function pageQuery(ctx: RequestContext, kind: KindRegistration, req: PageRequest): Omit<PageQuery, 'offset' | 'limit'> {
  const labels = Object.entries(req.labels ?? {}).map(
    ([key, value]): LabelFilter => (typeof value === 'string' ? { key, operator: 'Equals', values: [value] } : { key, operator: 'In', values: [...value] }),
  );
  return {
    ...typeOf(kind),
    namespace: ctx.namespace,
    ...(labels.length ? { labels } : {}),
    ...(req.names ? { names: req.names } : {}),
    ...(req.excludeNames ? { excludeNames: req.excludeNames } : {}),
    ...(req.folders ? { folders: req.folders } : {}),
    ...(req.descending ? { descending: true } : {}),
    ...(req.namedAs ? { namedAs: { ...typeOf(req.namedAs.kind), namespace: req.namedAs.namespace } } : {}),
    equal: Object.entries(req.where ?? {}).map(([name, v]) => ({ path: field(kind, name).path, values: Array.isArray(v) ? v : [v as Scalar] })),
    ...(req.query ? { contains: { text: req.query.text, paths: req.query.fields.map((f) => field(kind, f).path) } } : {}),
    order: (req.orderBy ?? []).map((f) => field(kind, f)),
  };
}

/** Who sees what of the page: undefined when the caller sees every object (no check, or a wildcard grant). */
async function narrowing(ctx: RequestContext, kind: KindRegistration, req: PageRequest): Promise<((objects: Resource[]) => Promise<Resource[]>) | undefined> {
  const access = ctx.access;
  if (!access) return undefined;
  const v = req.visibleTo;
  if (v) return (await access.can(v.action, v.every)) ? undefined : (objects) => access.filter(v.action, objects, v.scope);
  const kindAccess = KindAccess.of(ctx, kind);
  if (!kindAccess || (await access.can(kindAccess.action('read'), `${kind.access!.resource}:uid:*`))) return undefined;
  return (objects) => kindAccess.readable(objects);
}

/**
 * One page of the objects of `kind` in the context's namespace matching `req`, with how many the caller may see in
 * all.
 *
 * @example
 *   await pageVisible(storage, ctx, userKind, { query: { text: 'an', fields: ['login', 'email', 'name'] }, orderBy: ['login', 'id'], offset: 0, limit: 10 }, output)
 */
export async function pageVisible(storage: Storage, ctx: RequestContext, kind: KindRegistration, req: PageRequest, output: (s: StoredObject) => Resource): Promise<PageResult> {
  const query = pageQuery(ctx, kind, req);
  const offset = req.offset ?? 0;
  const narrow = await narrowing(ctx, kind, req);
  if (!narrow) {
    const page = await storage.page({ ...query, offset, limit: req.limit });
    return { items: page.items.map(output), totalCount: page.total };
  }
  const visible = await narrow((await storage.page({ ...query, offset: 0 })).items.map(output));
  return { items: visible.slice(offset, req.limit === undefined ? undefined : offset + req.limit), totalCount: visible.length };
}
