import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import type { ReadAheadRoute } from '../../legacy-adapters';
import type { ScopedReads } from '../../storage';
import type { ResourceKey } from '../../storage';
import { isWatchRequest } from './watch-stream';

const OBJECT_PATH = /^\/apis\/([^/]+)\/[^/]+\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/;

/**
 * The stored object `GET /apis/<group>/<version>/namespaces/<namespace>/<resource>/<name>` reads (the registry keys
 * an object by its kind's group and plural, its namespace and name), if the path is one; nothing for a path it
 * cannot decode or that names no storable key (the request is refused later).
 */
function objectOf(path: string): ResourceKey | undefined {
  const m = OBJECT_PATH.exec(path);
  if (!m) return undefined;
  try {
    const [group, namespace, resource, name] = m.slice(1).map(decodeURIComponent);
    // PostgreSQL text holds no NUL: such a name is no object's, and the registry refuses it (400) when it reads.
    if ([group, namespace, resource, name].some((s) => s.includes('\u0000'))) return undefined;
    return { group, resource, namespace, name };
  } catch {
    return undefined;
  }
}

/**
 * Every request (but a watch) reads in a scope of its own (storage/scoped-reads.ts): one query of every type's
 * version validates what it reads of the cached kinds (the caller's identity, organization, role, teams,
 * permissions, folders), so an authenticated read of one object costs two queries, and a change any replica
 * committed before the request started is seen by it. A write authenticates the same way (one query where it read
 * each of the caller's records); once it has written, the scope reads the versions again, so what it reads next
 * includes its own write. Watches read directly, since they outlive any snapshot. The scope ends with the response: a timer started by the request reads directly. A GET of
 * one object under /apis names the object it reads: it is read in the statement of the versions, one query in all
 * (read only once the request needs the versions, so after its credential's checksum; handed out only as the
 * registry reads it, after authentication), unless `answered` says its answer is kept: then the versions alone tell
 * whether the kept answer is still the answer, and the object is read only if it is not (two statements).
 *
 * @example app.use(readScope(storage)); // before authentication
 */
export function readScope(storage: ScopedReads, readAhead: readonly ReadAheadRoute[] = [], answered: (url: string) => boolean = () => false): RequestHandler {
  // The legacy GETs that name their object, matched as express matches routes (path-to-regexp, case-insensitive,
  // a trailing slash allowed, parameters decoded; a malformed escape matches nothing).
  const legacy = readAhead.map((route) => ({ route, match: match<Record<string, string>>(route.path, { sensitive: false, end: true, trailing: true }) }));
  const legacyObjectOf = (req: Parameters<RequestHandler>[0]): ResourceKey | undefined => {
    for (const { route, match: m } of legacy) {
      let found: ReturnType<typeof m>;
      try {
        found = m(req.path);
      } catch {
        return undefined;
      }
      if (!found) continue;
      const key = route.keyOf(found.params, (h) => req.get(h));
      return key && !key.name.includes('\u0000') ? key : undefined;
    }
    return undefined;
  };
  return (req, res, next) => {
    if (isWatchRequest(req)) return next();
    const reading = req.method === 'GET' || req.method === 'HEAD';
    // A GET whose answer is kept (pkg/server/answer-cache.ts) is likely answered from it: the versions alone.
    const object = !reading || answered(req.originalUrl) ? undefined : req.path.startsWith('/apis/') ? objectOf(req.path) : req.path.startsWith('/api/') ? legacyObjectOf(req) : undefined;
    storage.run(() => next(), (end) => res.once('close', end), object);
  };
}
