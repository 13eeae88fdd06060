import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { folderUrl } from '../shared/folder-url';
import { queryInt } from '../shared/params';
import { StatusError } from '../../pkg/errors';

/** The anchor's page size when `limit` is missing, not a number or below 1. */
export const DEFAULT_LIMIT = 1000;
/** The anchor's largest `limit`; above it the search is refused (422). */
export const MAX_LIMIT = 5000;

export type HitType = 'dash-db' | 'dash-folder';

/** `GET /api/search` parameters, bound. */
export interface SearchParams {
  query: string;
  tags: string[];
  /** Only this type; both when unset. */
  type?: HitType;
  /** Only hits in these folders ('' = the root); unset = anywhere. */
  folderUIDs?: string[];
  /** Only these uids; unset = any. */
  dashboardUIDs?: string[];
  /** Deprecated: only hits in the folders of these legacy ids (0 = the root); with `folderUIDs`, in both. */
  folderIds?: number[];
  /** Deprecated: only the dashboards of these legacy ids; with `dashboardUIDs`, either. */
  dashboardIds?: number[];
  starred: boolean;
  limit: number;
  /** From 1. */
  page: number;
  /** Unset: folders first, then dashboards, each by title (the anchor's order when no sort is asked). */
  sort?: 'alpha-asc' | 'alpha-desc';
  /** `Edit`: only what the caller may edit. */
  permission: 'View' | 'Edit';
}

/** A search hit, as the anchor's `Hit` model. */
export interface Hit {
  id: number;
  uid: string;
  title: string;
  uri: string;
  url: string;
  slug: string;
  type: HitType;
  tags: string[];
  isStarred: boolean;
  folderId?: number;
  folderUid?: string;
  folderTitle?: string;
  folderUrl?: string;
  sortMeta: number;
}

type Query = Record<string, unknown>;

/** Every value of a repeated query parameter (`?tag=a&tag=b`), strings only. */
function all(q: Query, name: string): string[] {
  const v = q[name];
  const values = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return values.filter((s): s is string => typeof s === 'string');
}

const first = (q: Query, name: string): string | undefined => all(q, name)[0];

/** The anchor's QueryInt: a base-10 integer, else 0. */
const int = (q: Query, name: string): number => queryInt(q[name]);

/** The base-10 integers of a repeated parameter; others are ignored, as the anchor ignores them. */
const ids = (q: Query, name: string): number[] => all(q, name).filter((v) => /^-?[0-9]{1,15}$/.test(v)).map(Number);

/** The root folder's uid in the anchor's APIs ('general') and '' both mean "at the root". */
const folderOf = (uid: string) => (uid === 'general' ? '' : uid);

/**
 * Binds `GET /api/search`'s query string as the anchor does: unknown `type` and `sort` values are ignored, `limit`
 * below 1 is 1000, `page` below 1 is 1.
 *
 * @throws StatusError 422 when `limit` is above 5000.
 * @example
 *   parseSearchParams({ query: 'lat', tag: ['a', 'b'], limit: '10' });
 *   // { query: 'lat', tags: ['a', 'b'], starred: false, limit: 10, page: 1, permission: 'View' }
 */
export function parseSearchParams(q: Query): SearchParams {
  const limit = int(q, 'limit');
  if (limit > MAX_LIMIT) {
    throw new StatusError(422, 'Invalid', `Limit is above maximum allowed (${MAX_LIMIT}), use page parameter to access hits beyond limit`);
  }
  const type = first(q, 'type');
  const sort = first(q, 'sort');
  const folderUIDs = all(q, 'folderUIDs');
  const dashboardUIDs = all(q, 'dashboardUIDs').length ? all(q, 'dashboardUIDs') : all(q, 'dashboardUID');
  return {
    query: first(q, 'query') ?? '',
    tags: all(q, 'tag').filter((t) => t !== ''),
    ...(type === 'dash-db' || type === 'dash-folder' ? { type } : {}),
    ...('folderUIDs' in q ? { folderUIDs: folderUIDs.map(folderOf) } : {}),
    ...(dashboardUIDs.length ? { dashboardUIDs } : {}),
    ...(ids(q, 'folderIds').length ? { folderIds: ids(q, 'folderIds') } : {}),
    ...(ids(q, 'dashboardIds').length ? { dashboardIds: ids(q, 'dashboardIds') } : {}),
    starred: first(q, 'starred') === 'true',
    limit: limit < 1 ? DEFAULT_LIMIT : limit,
    page: Math.max(int(q, 'page'), 1),
    ...(sort === 'alpha-asc' || sort === 'alpha-desc' ? { sort } : {}),
    permission: first(q, 'permission') === 'Edit' ? 'Edit' : 'View',
  };
}

/**
 * What a hit shows of the folder it is in (`url`: {@link folderUrl}, made once per folder): a folder the caller may
 * not read is its uid alone.
 */
export type FolderRef = { id: number; uid: string; title: string; url: string } | { uid: string };

/** What the search index holds of a hit, as the conversion needs it. */
export interface IndexedObject {
  type: HitType;
  name: string;
  title: string;
  tags: readonly string[];
  internalId: number;
}

/** A hit's folder fields: none at the root, the uid alone for a folder the caller may not read. */
function folderFields(folder?: FolderRef): Partial<Hit> {
  if (!folder) return {};
  return 'title' in folder ? { folderId: folder.id, folderUid: folder.uid, folderTitle: folder.title, folderUrl: folder.url } : { folderUid: folder.uid };
}

/**
 * A hit of the anchor's shape. Hits at the root carry no folder fields, hits in a folder the caller may not read only
 * its uid; tags are sorted.
 *
 * @example
 *   toHit({ type: 'dash-db', name: 'lat', title: 'API latency', tags: ['b', 'a'], internalId: 3 }, false, { id: 1, uid: 'ops', title: 'Ops', url: '/dashboards/f/ops/ops' });
 *   // { id: 3, uid: 'lat', title: 'API latency', uri: 'db/api-latency', url: '/d/lat/api-latency', slug: 'api-latency',
 *   //   type: 'dash-db', tags: ['a', 'b'], isStarred: false, folderId: 1, folderUid: 'ops', folderTitle: 'Ops',
 *   //   folderUrl: '/dashboards/f/ops/ops', sortMeta: 0 }
 */
export function toHit(o: IndexedObject, isStarred: boolean, folder?: FolderRef): Hit {
  const slug = slugify(o.title);
  return {
    id: o.internalId,
    uid: o.name,
    title: o.title,
    uri: `db/${slug}`,
    url: o.type === 'dash-folder' ? folderUrl(o.name, o.title) : dashboardUrl(o.name, o.title),
    slug,
    type: o.type,
    tags: [...o.tags].sort(),
    isStarred,
    ...folderFields(folder),
    sortMeta: 0,
  };
}
