import { createHash } from 'node:crypto';
import { queryHistoryKind, type QueryHistorySpec } from '../../apis/queryhistory.svc.app/v0alpha1/queryhistory';
import { notFoundAsUndefined, StatusError } from '../errors';
import { anyKind, type Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { randomName } from '../registry/names';

/** Whose history: an identity (`user:<uid>`, `service-account:<uid>`), its legacy id, in the org it acts in. */
export interface HistoryOwner {
  identity: string;
  userId: number;
  orgId: number;
}

/** The anchor's QueryHistoryDTO. */
export interface QueryHistoryEntry {
  uid: string;
  datasourceUid: string;
  createdBy: number;
  createdAt: number;
  comment: string;
  queries: unknown;
  starred: boolean;
}

export interface HistorySearch {
  /** Any of these data sources (none: every one). */
  datasourceUids: string[];
  /** Part of the queries' JSON or of the comment, in any case. */
  searchString: string;
  onlyStarred: boolean;
  sort: 'time-desc' | 'time-asc';
  /** From 1. */
  page: number;
  limit: number;
  /** Seconds since the epoch, both inclusive; undefined: unbounded. */
  from?: number;
  to?: number;
}

export interface HistoryPage {
  totalCount: number;
  queryHistory: QueryHistoryEntry[];
  page: number;
  perPage: number;
}

const kind = queryHistoryKind;
const OWNER = 'queryhistory.svc.app/owner';
const STARRED = 'queryhistory.svc.app/starred';
/** The anchor's short uids: 14 characters. */
const UID_LENGTH = 14;
/** The anchor's words for any entry the caller does not own, or that does not exist. */
export const queryNotFound = () => new StatusError(404, 'NotFound', 'Query in query history not found');

/** The owner as a label value: a digest of the identity (an identity holds ':', which a label value cannot). */
const ownerLabel = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 40);

/**
 * Explore's query history (the anchor's pkg/services/queryhistory), one QueryHistory object per query in the
 * org's namespace, labelled with its owner and its star: a user reads, comments, stars and deletes only their own
 * entries (another's is 404, as a missing one). Kept beside the objects of `objects` (its storage and namespaces).
 *
 * @example
 *   const history = new QueryHistory(registry);
 *   const entry = await history.add(req.user!, 'P1809F7CD0C75ACF3', [{ refId: 'A', expr: 'up' }]);
 *   await history.star(req.user!, entry.uid);
 */
export class QueryHistory {
  private readonly registry: Registry;

  constructor(objects: Registry) {
    this.registry = objects.companion([anyKind(kind)]);
  }

  private ctx(owner: HistoryOwner): RequestContext {
    return { requester: { identity: owner.identity }, namespace: this.registry.namespaces.of(owner.orgId), fieldManager: 'svc-query-history' };
  }

  async add(owner: HistoryOwner, datasourceUid: string, queries: QueryHistorySpec['queries']): Promise<QueryHistoryEntry> {
    const spec: QueryHistorySpec = { datasourceUid, queries, comment: '', createdAt: Math.floor(Date.now() / 1000) };
    const labels = { [OWNER]: ownerLabel(owner.identity) };
    const stored = await this.registry.create(this.ctx(owner), kind, { metadata: { name: randomName(UID_LENGTH), labels, annotations: { [CREATED_BY]: String(owner.userId) } }, spec });
    return entryOf(stored);
  }

  /** The owner's entries that match, one page of them, and how many match in all. */
  async search(owner: HistoryOwner, q: HistorySearch): Promise<HistoryPage> {
    const selector = `${OWNER}=${ownerLabel(owner.identity)}${q.onlyStarred ? `,${STARRED}=true` : ''}`;
    const list = await this.registry.list(this.ctx(owner), kind, { labelSelector: selector });
    const needle = q.searchString.toLowerCase();
    const matches = list.items.map(entryOf).filter((e) =>
      (q.datasourceUids.length === 0 || q.datasourceUids.includes(e.datasourceUid)) &&
      (q.from === undefined || e.createdAt >= q.from) &&
      (q.to === undefined || e.createdAt <= q.to) &&
      (needle === '' || JSON.stringify(e.queries).toLowerCase().includes(needle) || e.comment.toLowerCase().includes(needle)));
    // Newest first by default; entries of one second keep the order of their uids.
    matches.sort((a, b) => (q.sort === 'time-asc' ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
    const start = (q.page - 1) * q.limit;
    return { totalCount: matches.length, queryHistory: matches.slice(start, start + q.limit), page: q.page, perPage: q.limit };
  }

  /** The owner's entry `uid` (404 otherwise). */
  private async owned(owner: HistoryOwner, uid: string): Promise<Resource<QueryHistorySpec>> {
    const stored = await this.registry.get(this.ctx(owner), kind, uid).catch(notFoundAsUndefined);
    if (!stored || stored.metadata.labels?.[OWNER] !== ownerLabel(owner.identity)) throw queryNotFound();
    return stored;
  }

  /**
   * Deletes the owner's entry and answers how many entries that deleted (1), which the anchor answers as `id` (its
   * delete's count of affected rows).
   */
  async delete(owner: HistoryOwner, uid: string): Promise<number> {
    await this.owned(owner, uid);
    await this.registry.delete(this.ctx(owner), kind, uid).catch((err: unknown) => {
      notFoundAsUndefined(err);
      throw queryNotFound();
    });
    return 1;
  }

  async comment(owner: HistoryOwner, uid: string, comment: string): Promise<QueryHistoryEntry> {
    await this.owned(owner, uid);
    return entryOf(await this.registry.patch(this.ctx(owner), kind, uid, (current) => ({ ...current, spec: { ...current.spec, comment } })));
  }

  /**
   * Stars (`on`) or unstars the owner's entry. Starring a starred entry, or unstarring one that is not, is 400 with
   * the anchor's words (it answers them with a 500).
   */
  async star(owner: HistoryOwner, uid: string, on: boolean): Promise<QueryHistoryEntry> {
    const stored = await this.owned(owner, uid);
    const starred = stored.metadata.labels?.[STARRED] === 'true';
    if (starred === on) throw StatusError.badRequest(on ? 'Failed to star query in query history' : 'Failed to unstar query in query history');
    const next = await this.registry.patch(this.ctx(owner), kind, uid, (current) => {
      const labels = { ...current.metadata.labels };
      if (on) labels[STARRED] = 'true';
      else delete labels[STARRED];
      return { ...current, metadata: { ...current.metadata, labels } };
    });
    return entryOf(next);
  }
}

/** The legacy id of the user who ran the query (the anchor's `createdBy`). */
const CREATED_BY = 'queryhistory.svc.app/createdBy';

function entryOf(obj: Resource<QueryHistorySpec>): QueryHistoryEntry {
  const { spec } = obj;
  return {
    uid: obj.metadata.name,
    datasourceUid: spec.datasourceUid,
    createdBy: Number(obj.metadata.annotations?.[CREATED_BY] ?? 0),
    createdAt: spec.createdAt,
    comment: spec.comment,
    queries: spec.queries,
    starred: obj.metadata.labels?.[STARRED] === 'true',
  };
}

const byRegistry = new WeakMap<Registry, QueryHistory>();

/** The query history kept beside `registry`'s objects (one instance per registry). */
export function queryHistoryOf(registry: Registry): QueryHistory {
  let history = byRegistry.get(registry);
  if (!history) {
    history = new QueryHistory(registry);
    byRegistry.set(registry, history);
  }
  return history;
}
