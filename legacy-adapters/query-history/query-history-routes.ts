import type { Request, Response } from 'express';
import { z } from 'zod';
import { queryHistorySpecSchema } from '../../apis/queryhistory.svc.app/v0alpha1/queryhistory';
import { StatusError } from '../../pkg/errors';
import { parseTime } from '../../pkg/plugins/time-range';
import { type HistoryOwner, type HistorySearch, queryHistoryOf, queryNotFound } from '../../pkg/query-history/query-history';
import { type AdapterDeps, bind, queryInt, queryString } from '../shared';

/** Explore's query history (pkg/query-history), the anchor's pkg/services/queryhistory/api.go. */

const owner = (req: Request): HistoryOwner => req.user!;

/** The anchor's IsValidShortUID: a uid it could never have made is its 404 before any lookup. */
function uidParam(req: Request): string {
  const uid = String(req.params.uid ?? '');
  if (!/^[a-zA-Z0-9_-]{1,40}$/.test(uid)) throw queryNotFound();
  return uid;
}

/** A bound of the search's time range in epoch seconds (epoch milliseconds or date math such as `now-14d`); absent: none. */
function boundSeconds(req: Request, name: 'from' | 'to'): number | undefined {
  const raw = queryString(req.query[name]);
  if (raw === undefined || raw === '') return undefined;
  const ms = parseTime(raw, name === 'to', Date.now());
  if (ms === undefined) throw StatusError.badRequest(`Invalid time range: ${name} must be epoch milliseconds or date math (now-14d)`);
  return Math.floor(ms / 1000);
}

/** Every value of a repeated query parameter (`?datasourceUid=a&datasourceUid=b`). */
const queryStrings = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((s): s is string => typeof s === 'string' && s !== '');

export const createBody = queryHistorySpecSchema.pick({ datasourceUid: true, queries: true }).extend({ datasourceUid: z.string().max(40).default('') });
export const commentBody = z.object({ comment: z.string().max(10_000).default('') });

export async function createQuery(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { datasourceUid, queries } = bind(req, createBody);
  res.json({ result: await queryHistoryOf(deps.registry).add(owner(req), datasourceUid, queries) });
}

export async function searchQueries(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const page = queryInt(req.query.page);
  const limit = queryInt(req.query.limit);
  const search: HistorySearch = {
    datasourceUids: queryStrings(req.query.datasourceUid),
    searchString: queryString(req.query.searchString) ?? '',
    onlyStarred: queryString(req.query.onlyStarred) === 'true',
    sort: queryString(req.query.sort) === 'time-asc' ? 'time-asc' : 'time-desc',
    page: page > 0 ? page : 1,
    limit: limit > 0 ? limit : 100,
    from: boundSeconds(req, 'from'),
    to: boundSeconds(req, 'to'),
  };
  res.json({ result: await queryHistoryOf(deps.registry).search(owner(req), search) });
}

export async function deleteQuery(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = await queryHistoryOf(deps.registry).delete(owner(req), uidParam(req));
  res.json({ message: 'Query deleted', id });
}

export async function patchQueryComment(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const uid = uidParam(req);
  const { comment } = bind(req, commentBody);
  res.json({ result: await queryHistoryOf(deps.registry).comment(owner(req), uid, comment) });
}

export async function starQuery(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json({ result: await queryHistoryOf(deps.registry).star(owner(req), uidParam(req), true) });
}

export async function unstarQuery(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json({ result: await queryHistoryOf(deps.registry).star(owner(req), uidParam(req), false) });
}
