import { StatusError } from '../errors';
import type { KindRegistration, Resource } from '../meta';
import type { Logger } from '../log';
import type { Storage, StoredObject } from '../../storage';
import { typeOf } from './folder-tree';
import { bookmark, type Change, expired, watchError, type WatchEvent } from './watch-change';
import { planWatch, type WatchOptions, type WatchPlan } from './watch-options';
import { KindPoller, type PollerOptions } from './watch-poller';
import { type EventSource, type WatchAccess, WatchVisibility } from './watch-visibility';
import { Watcher } from './watch-watcher';

export type { BookmarkObject, WatchEvent, WatchStatus } from './watch-change';
export { INITIAL_EVENTS_END } from './watch-change';
export type { WatchOptions } from './watch-options';

export interface WatchHubOptions {
  /** How often a kind with watches reads its history (`registry.watch_poll_interval_ms`). */
  pollIntervalMs: number;
  log: Logger;
  /** Periodic bookmarks (allowWatchBookmarks=true); kube sends one about every minute. */
  bookmarkIntervalMs?: number;
  /** Events one watch may have waiting before it is ended as too slow. */
  maxQueue?: number;
  /** Recent changes kept per watched kind, so that recent resumes cost no query. */
  recentChanges?: number;
  /** History rows per query, and objects per page of the initial list. */
  pageSize?: number;
  /** How often an idle kind's position is refreshed (so bookmarks stay resumable). */
  freshenIntervalMs?: number;
  /** Told of every event a watch is given (metrics). */
  onEvent?: (type: WatchEvent['type']) => void;
  /** Told, for every write a poller reads, how long ago its resourceVersion (microseconds) was taken (metrics). */
  onRead?: PollerOptions['onRead'];
}

/** A namespace a watch follows (already authorized), and what the caller may see there. */
export interface WatchedNamespace {
  namespace: string;
  /**
   * What the caller may see in it (`registry.visibility(ctx, kind)`, with its rights in that namespace); unset,
   * every event is sent. `list` must already be filtered the same way.
   */
  visible?: WatchAccess;
}

/** What one watch asks for: its kind and namespaces, how to present and list, and its options. */
export interface WatchRequest extends WatchOptions {
  kind: KindRegistration;
  /** One namespace, or several for a watch across namespaces (`kubectl get -A --watch`); events of others are never sent. */
  namespaces: readonly WatchedNamespace[];
  /** A stored row as GET shows it (`registry.present(kind, s)`); one per kind is used for every watch of it. */
  present(s: StoredObject): Resource;
  /**
   * One page of the collection as a list shows it, with the same selectors (`registry.list(ctx, kind, ...)`, or
   * `listAcross` for several namespaces: one resourceVersion for all of them).
   */
  list(page: { limit: number; continue?: string }): Promise<{ items: Resource[]; metadata: { resourceVersion: string; continue?: string } }>;
  /** Ends the watch (the client went away). Ending the iteration does the same. */
  signal?: AbortSignal;
}

const DEFAULTS = { bookmarkIntervalMs: 60_000, maxQueue: 1000, recentChanges: 256, pageSize: 500, freshenIntervalMs: 10_000, onEvent: () => undefined, onRead: () => undefined };

class Aborted extends Error {}

/**
 * Watches of every kind, fed by one history poller per watched kind (see KindPoller): `?watch=true` as
 * kube-apiserver serves it, across every server process sharing the database.
 *
 * @example
 *   const hub = new WatchHub(storage, { pollIntervalMs: 100, log });
 *   for await (const ev of hub.watch({ kind, namespaces: [{ namespace: 'default' }], present: (s) => registry.present(kind, s),
 *     list: (p) => registry.list(ctx, kind, p), resourceVersion: '0', allowWatchBookmarks: true })) {
 *     console.log(ev.type, ev.object.metadata.resourceVersion);
 *   }
 */
export class WatchHub {
  private readonly pollers = new Map<string, KindPoller>();
  /** versions() reads in flight per kind: watches starting together (a reconnect storm) share one query. */
  private readonly versionReads = new Map<string, Promise<{ current: number; oldestResumable: number }>>();
  private readonly opts: Required<WatchHubOptions>;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    opts: WatchHubOptions,
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  /**
   * Checks the options at once (so that a bad request is a plain 400/422, before any streaming), then returns the
   * events. Too old a resourceVersion is not thrown: it is the stream's one ERROR event (410 Expired), as in kube.
   * @throws StatusError 400/422 for malformed or forbidden options; 503 once the hub is stopped.
   */
  watch(req: WatchRequest): AsyncIterable<WatchEvent> {
    if (this.stopped) throw StatusError.unavailable('the server is shutting down');
    const plan = planWatch(req);
    return { [Symbol.asyncIterator]: () => this.iterate(req, plan) };
  }

  /** Watches and watched kinds right now (for tests and benchmarks). */
  stats(): { kinds: number; watches: number } {
    let watches = 0;
    for (const p of this.pollers.values()) watches += p.size;
    return { kinds: this.pollers.size, watches };
  }

  /** Ends every watch (their streams close cleanly) and polls no more; for shutdown. */
  stop(): void {
    this.stopped = true;
    for (const p of [...this.pollers.values()]) p.stop();
    this.pollers.clear();
  }

  private iterate(req: WatchRequest, plan: WatchPlan): AsyncIterator<WatchEvent> {
    const ctrl = new AbortController();
    const abort = () => ctrl.abort();
    if (req.signal?.aborted) ctrl.abort();
    req.signal?.addEventListener('abort', abort, { once: true });
    const gen = this.session(req, plan, ctrl.signal);
    return {
      next: async () => {
        const r = await gen.next();
        if (!r.done) this.opts.onEvent(r.value.type);
        return r;
      },
      // Aborting first wakes a watch waiting for events, so the generator can finish and run its cleanup.
      return: async () => {
        ctrl.abort();
        req.signal?.removeEventListener('abort', abort);
        return gen.return(undefined);
      },
    };
  }

  private async *session(req: WatchRequest, plan: WatchPlan, signal: AbortSignal): AsyncGenerator<WatchEvent, void, undefined> {
    try {
      yield* this.run(req, plan, signal);
    } catch (err) {
      if (!(err instanceof Aborted)) throw err;
    }
  }

  private async *run(req: WatchRequest, plan: WatchPlan, signal: AbortSignal): AsyncGenerator<WatchEvent, void, undefined> {
    const until = <T>(p: Promise<T>) => abortable(p, signal);
    const deadline = Date.now() + plan.timeoutMs;
    const type = typeOf(req.kind);
    const start = plan.start;
    // One gate per namespace: what the caller holds, and may see, is per namespace (names repeat across them).
    const gates = new Map<string, WatchVisibility>();
    for (const { namespace, visible } of req.namespaces) if (visible) gates.set(namespace, new WatchVisibility(visible, start.from === 'list'));
    const namespaces = [...new Set(req.namespaces.map((n) => n.namespace))];
    // Changes after `after` are delivered; `known` is a version no newer than the newest (where a poller may start).
    let after: number;
    let known: number;
    if (start.from === 'list') {
      let listed: number | undefined;
      let token: string | undefined;
      do {
        const page = await until(req.list({ limit: this.opts.pageSize, ...(token ? { continue: token } : {}) }));
        listed ??= Number(page.metadata.resourceVersion);
        for (const object of page.items) {
          if (Date.now() >= deadline) return;
          gates.get(object.metadata.namespace ?? '')?.sent(object);
          yield { type: 'ADDED', object };
        }
        token = page.metadata.continue;
      } while (token);
      if (start.notOlderThan !== undefined && start.notOlderThan > listed) {
        yield watchError(504, 'Timeout', `Too large resource version: ${start.notOlderThan}, current: ${listed}`, {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        });
        return;
      }
      if (start.endBookmark) yield bookmark(req.kind, listed, true);
      after = known = listed;
    } else if (start.from === 'now') {
      after = known = (await until(this.versions(req.kind))).current;
    } else {
      after = start.resourceVersion;
      const poller = this.pollers.get(pollerKey(req.kind));
      if (poller && poller.floor <= after && after <= poller.last) {
        // The poller's memory holds every change since: no need to ask whether history still reaches back.
        known = after;
      } else {
        const v = await until(this.versions(req.kind));
        if (after < v.oldestResumable) {
          yield expired(after, v.oldestResumable);
          return;
        }
        known = Math.min(after, v.current);
      }
    }

    const w = new Watcher({
      kind: req.kind,
      namespaces,
      selection: { labels: plan.labels, fields: plan.fields },
      after,
      deadline,
      bookmarks: plan.bookmarks,
      bookmarkIntervalMs: this.opts.bookmarkIntervalMs,
      maxQueue: this.opts.maxQueue,
    });
    if (this.stopped) return;
    const poller = this.pollerFor(req, known);
    poller.add(w);
    const shown = async (ev: WatchEvent | undefined) => {
      const change = ev && w.sourceOf(ev);
      const gate = change && gates.get(change.namespace);
      return gate ? until(gate.pass(ev, sourceOf(poller, change))) : ev;
    };
    const onAbort = () => w.end('closed');
    signal.addEventListener('abort', onAbort, { once: true });
    // Closed between the last await and here: the listener above will never fire.
    if (signal.aborted) w.end('closed');
    try {
      // Catch up from the poller's memory or from history, until the poller can take over.
      const seen = new Map<string, Change>();
      for (;;) {
        if (w.ended) return;
        const step = poller.goLive(w);
        if (step.state === 'live') break;
        if (step.state === 'resolve') {
          await until(poller.resolvePrevious(step.changes));
          continue;
        }
        const changes = await until(poller.readAfter(w, seen));
        if (!changes.length) {
          // Behind the poller yet nothing in history: compaction took what this watch still needed.
          yield expired(w.cursor, (await until(this.storage.versions(type))).oldestResumable);
          return;
        }
        for (const c of changes) {
          const ev = await shown(w.consider(c));
          if (ev) yield ev;
          if (w.ended) return;
        }
      }
      for (;;) {
        const taken = await w.take();
        if (!taken) break;
        const ev = await shown(taken);
        if (ev) yield ev;
      }
      if (w.endReason === 'overflow') this.opts.log.info('watch: ended a watch too slow to keep up', { ...type, namespaces: namespaces.join(',') });
    } finally {
      signal.removeEventListener('abort', onAbort);
      w.end('closed');
      poller.remove(w);
    }
  }

  private versions(kind: KindRegistration): Promise<{ current: number; oldestResumable: number }> {
    const key = pollerKey(kind);
    let read = this.versionReads.get(key);
    if (!read) {
      read = this.storage.versions(typeOf(kind)).finally(() => this.versionReads.delete(key));
      this.versionReads.set(key, read);
    }
    return read;
  }

  private pollerFor(req: WatchRequest, start: number): KindPoller {
    const key = pollerKey(req.kind);
    let poller = this.pollers.get(key);
    if (!poller) {
      const created: KindPoller = new KindPoller(
        this.storage,
        typeOf(req.kind),
        req.present,
        start,
        { pollIntervalMs: this.opts.pollIntervalMs, pageSize: this.opts.pageSize, recentChanges: this.opts.recentChanges, freshenIntervalMs: this.opts.freshenIntervalMs, log: this.opts.log, onRead: this.opts.onRead },
        () => {
          if (this.pollers.get(key) === created) this.pollers.delete(key);
        },
      );
      this.pollers.set(key, (poller = created));
    }
    return poller;
  }
}

/** What visibility may ask of the change behind an event: what a MODIFIED replaced is looked up once, when asked. */
function sourceOf(poller: KindPoller, c: Change | undefined): EventSource | undefined {
  if (!c) return undefined;
  return {
    action: c.event.action,
    previous: async () => {
      if (c.previous === undefined) await poller.resolvePrevious([c]);
      return c.previous ? c.leftObject() : undefined;
    },
  };
}

const pollerKey = (kind: KindRegistration) => `${kind.group}/${kind.version}/${kind.plural}`;

/** Settles with `p`, or rejects with Aborted as soon as the watch is closed (`p` is then left to settle unobserved). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Aborted());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      p.catch(() => undefined);
      reject(new Aborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
