import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../log';
import { isWatchRequest } from './watch-stream';

/** A request id a client or a proxy may set: printable ASCII without spaces, at most 128 characters. */
const ACCEPTED_ID = /^[\x21-\x7e]{1,128}$/;

/** What every request ended as, for the log and the metrics. */
export interface FinishedRequest {
  method: string;
  /** The route template that answered (`/apis/:group/:version/namespaces/:namespace/:resource/:name`), never the path. */
  route: string;
  status: number;
  durationSeconds: number;
  /** A watch (`?watch=true` under /apis): it lasts as long as the client keeps it. */
  watch: boolean;
}

/** Told when each request starts and ends (the metrics). */
export interface RequestObserver {
  started(): void;
  finished(r: FinishedRequest): void;
}

/** Probes and scrapes come every few seconds from the platform: logged at debug, not info. */
const QUIET_ROUTES: ReadonlySet<string> = new Set(['/livez', '/readyz', '/api/health', '/metrics']);

/** The status logged and counted for a request whose client went away before any answer began. */
export const CLIENT_CLOSED = 499;

/** A request that no route took (refused before routing, or unknown): one label, so paths never become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The template of the route that answered: every router is mounted at the root, so `req.route.path` is the whole
 * template. Routes declared with several paths give them joined by `|`.
 */
export function routeTemplate(req: Request): string {
  const path: unknown = req.route?.path;
  if (typeof path === 'string') return path;
  if (Array.isArray(path)) return path.join('|');
  return UNMATCHED_ROUTE;
}

/**
 * One JSON log line per request when it ends (for a watch, when it closes): its id (the client's `X-Request-Id`
 * when acceptable, else a new UUID, echoed in the response), method, route template, path (no query string),
 * status, duration, the caller's identity and login and the organization it acted in (never its credentials).
 * `observer` is told when it starts and ends (the metrics).
 *
 * @example app.use(requestLog(log, metrics));
 */
export function requestLog(log: Logger, observer?: RequestObserver): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    observer?.started();
    const started = process.hrtime.bigint();
    const given = req.get('x-request-id');
    const requestId = given !== undefined && ACCEPTED_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const durationSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplate(req);
      // A client that went away before the answer was complete: what it was answered so far, or, when it went before
      // any answer began, 499 (nginx's "client closed request"), not the 200 a response starts with.
      const aborted = !res.writableFinished;
      const status = aborted && !res.headersSent ? CLIENT_CLOSED : res.statusCode;
      observer?.finished({ method: req.method, route, status, durationSeconds, watch: req.path.startsWith('/apis/') && isWatchRequest(req) });
      const level = status >= 500 ? 'error' : QUIET_ROUTES.has(route) ? 'debug' : 'info';
      log[level]('request', {
        requestId,
        method: req.method,
        route,
        path: req.originalUrl.split('?')[0].slice(0, 1024),
        status,
        durationMs: Math.round(durationSeconds * 1e6) / 1e3,
        ...(aborted ? { aborted } : {}),
        ...(req.user ? { caller: req.user.identity, login: req.user.login, org: req.user.orgId } : {}),
        remote: req.ip,
      });
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}
