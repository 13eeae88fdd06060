import type { RequestHandler } from 'express';
import type { ScopedReads } from '../../storage';
import { isWatchRequest } from './watch-stream';

/**
 * Every GET (but a watch) reads in a scope of its own (storage/scoped-reads.ts): one query of every type's version
 * validates what it reads of the cached kinds (the caller's identity, organization, role, teams, permissions,
 * folders), so an authenticated read of one object costs two queries, and a change any replica committed before
 * the request started is seen by it. Writes read directly (their versions change under them); watches too, since
 * they outlive any snapshot. The scope ends with the response: a timer started by the request reads directly.
 *
 * @example app.use(readScope(storage)); // before authentication
 */
export function readScope(storage: ScopedReads): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isWatchRequest(req)) return next();
    storage.run(() => next(), (end) => res.once('close', end));
  };
}
