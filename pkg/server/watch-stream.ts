import type { Request, Response } from 'express';
import { StatusError } from '../errors';
import type { KindRegistration } from '../meta';
import type { Logger } from '../log';
import { listAcross, type Registry, type RequestContext } from '../registry';
import type { WatchEvent, WatchHub, WatchOptions } from '../registry/watch';
import { watchError } from '../registry/watch-change';
import type { WatchCredentials } from './watch-credentials';
import { asStatusError, statusBody } from './render-error';

export interface StreamWatchOptions {
  /**
   * Turns each event into the object sent (for example a one-row Table); default the event's own object.
   * Called for every event but ERROR; it must not mutate the event's object, which other watches share.
   */
  render?: (event: WatchEvent) => unknown;
  log?: Logger;
}

/** `?watch=true` or `?watch=1`, as kube-apiserver reads the flag. */
export function isWatchRequest(req: Request): boolean {
  const v = req.query.watch;
  return v === 'true' || v === '1';
}

/**
 * The watch options of a request's query. Selectors and resourceVersion are checked by `WatchHub.watch`.
 * @throws StatusError 400 for a repeated parameter or a malformed boolean or timeoutSeconds.
 */
export function watchOptions(req: Request): WatchOptions {
  const timeout = param(req, 'timeoutSeconds');
  if (timeout !== undefined && timeout !== '' && !/^[0-9]{1,9}$/.test(timeout)) {
    throw StatusError.badRequest(`invalid timeoutSeconds ${JSON.stringify(timeout)}: must be a non-negative integer`);
  }
  return {
    resourceVersion: param(req, 'resourceVersion'),
    resourceVersionMatch: param(req, 'resourceVersionMatch') || undefined,
    labelSelector: param(req, 'labelSelector'),
    fieldSelector: param(req, 'fieldSelector'),
    allowWatchBookmarks: flag(req, 'allowWatchBookmarks'),
    sendInitialEvents: flag(req, 'sendInitialEvents'),
    timeoutSeconds: timeout ? Number(timeout) : undefined,
  };
}

export interface ServeWatchDeps {
  hub: WatchHub;
  registry: Registry;
  kind: KindRegistration;
  /**
   * The resolved request context: the watch sees the namespace a list would. For a watch across namespaces
   * (`across`), one per namespace, each with the caller's rights there, as listAcross takes them.
   */
  contexts: readonly RequestContext[];
  /** A watch across namespaces: listed (when it starts with a list) as the list across namespaces is, at one version. */
  across?: boolean;
  render?: StreamWatchOptions['render'];
  log?: Logger;
  /** Ends the watch, with an ERROR event, once its caller's credential loses its access. */
  credentials?: WatchCredentials;
}

/**
 * A list request with `watch=true`: parses its options, starts the watch (a bad option is a plain 400/422 before
 * anything is streamed) and streams it. Resolves when the stream has ended.
 *
 * @example
 *   router.get(base, async (req, res) => {
 *     const { kind, ctx } = await resolve(req);
 *     if (isWatchRequest(req)) return serveWatch(req, res, { hub, registry, kind, contexts: [ctx] });
 *     res.json(await registry.list(ctx, kind, listOptions(req)));
 *   });
 */
export function serveWatch(req: Request, res: Response, deps: ServeWatchDeps): Promise<void> {
  const { hub, registry, kind, contexts } = deps;
  const o = watchOptions(req);
  const selectors = { labelSelector: o.labelSelector, fieldSelector: o.fieldSelector };
  const events = hub.watch({
    ...o,
    kind,
    namespaces: contexts.map((ctx) => ({ namespace: ctx.namespace, visible: registry.visibility(ctx, kind) })),
    present: (s) => registry.present(kind, s),
    list: (page) => (deps.across ? listAcross(registry, contexts, kind, { ...page, ...selectors }) : registry.list(contexts[0], kind, { ...page, ...selectors })),
  });
  const held = deps.credentials?.hold(req);
  if (!held) return streamWatch(req, res, events, { render: deps.render, log: deps.log });
  return streamWatch(req, res, endingWhen(events, held.lost), { render: deps.render, log: deps.log }).finally(() => held.release());
}

/**
 * The events, until `lost` settles: then one ERROR event carrying its Status, and the end. client-go lists again
 * on 410 Expired (a caller whose rights changed sees what it may now); on 401 or 403 it reports the refusal. Not a
 * generator: `return` must reach the watch at once, even while a `next` waits for events (a client gone).
 */
function endingWhen(events: AsyncIterable<WatchEvent>, lost: Promise<StatusError>): AsyncIterable<WatchEvent> {
  return {
    [Symbol.asyncIterator]: () => {
      const it = events[Symbol.asyncIterator]();
      const ending = lost.then((err) => ({ ending: watchError(err.code, err.reason, err.message) }));
      let over = false;
      const done = (): IteratorResult<WatchEvent> => ({ done: true, value: undefined });
      return {
        next: async () => {
          if (over) return done();
          const r = await Promise.race([it.next(), ending]);
          if ('ending' in r) {
            over = true;
            void it.return?.();
            return { done: false, value: r.ending };
          }
          if (r.done) over = true;
          return r;
        },
        return: async () => {
          over = true;
          await it.return?.();
          return done();
        },
      };
    },
  };
}

/**
 * Streams watch events as kube-apiserver does over HTTP/1.1: status 200 and headers flushed at once, then one JSON
 * object per line (`{"type":"ADDED","object":{...}}`) in a chunked body, written as the client drains it. The body
 * ends when the events end (timeout, too old a version, shutdown) or the client goes away; an error thrown by the
 * events becomes a last ERROR event carrying its Status.
 */
export async function streamWatch(req: Request, res: Response, events: AsyncIterable<WatchEvent>, opts: StreamWatchOptions = {}): Promise<void> {
  const it = events[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
    void it.return?.();
  };
  res.status(200);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.flushHeaders();
  res.on('close', onClose);
  // A write racing the client's disconnect reports an error on the response: 'close' already handles that case.
  res.on('error', ignore);
  try {
    for (;;) {
      const r = await it.next();
      if (r.done || gone || res.destroyed) break;
      if (!res.write(line(r.value, opts.render))) await drained(res);
    }
  } catch (err) {
    if (!gone && !res.destroyed) {
      let status = asStatusError(err);
      if (!status) {
        opts.log?.error('watch failed', { path: req.path, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        status = StatusError.internal();
      }
      res.write(`${JSON.stringify({ type: 'ERROR', object: statusBody(status) })}\n`);
    }
  } finally {
    res.off('close', onClose);
    if (!gone) await it.return?.();
    if (!res.writableEnded && !res.destroyed) res.end();
  }
}

const ignore = () => undefined;

/** Each shared object is serialized once, whatever the number of watches sending it. */
const serialized = new WeakMap<object, string>();

function line(ev: WatchEvent, render: StreamWatchOptions['render']): string {
  if (render && ev.type !== 'ERROR') return `${JSON.stringify({ type: ev.type, object: render(ev) })}\n`;
  let json = serialized.get(ev.object);
  if (json === undefined) serialized.set(ev.object, (json = JSON.stringify(ev.object)));
  return `{"type":"${ev.type}","object":${json}}\n`;
}

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function param(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw StatusError.badRequest(`query parameter ${name} must be given once`);
  return v;
}

/** kube's query booleans (strconv.ParseBool); "" is unset. */
function flag(req: Request, name: string): boolean | undefined {
  const v = param(req, name);
  if (v === undefined || v === '') return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw StatusError.badRequest(`invalid ${name} ${JSON.stringify(v)}: must be true or false`);
}
