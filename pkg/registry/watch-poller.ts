import type { Resource } from '../meta';
import type { Logger } from '../log';
import type { GroupResource, Storage, StoredObject } from '../../storage';
import { Change, labelsOf } from './watch-change';
import type { Watcher } from './watch-watcher';

export interface PollerOptions {
  pollIntervalMs: number;
  /** History rows read per query; a full page is followed by the next one at once. */
  pageSize: number;
  /** Recent changes kept in memory, so that watches resuming from a recent version start without a query. */
  recentChanges: number;
  /** How often an idle kind's position is brought up to the newest version (one cheap query). */
  freshenIntervalMs: number;
  log: Logger;
  /**
   * Told, for every write read, the seconds since its resourceVersion was taken (resourceVersions are microseconds
   * of the writing process's clock): how far this process's watches trail writes made by any replica.
   */
  onRead?: (lagSeconds: number) => void;
}

export type GoLive = { state: 'live' } | { state: 'behind' } | { state: 'resolve'; changes: Change[] };

const keyOf = (c: Change) => `${c.namespace}\u0000${c.name}`;

/**
 * The one reader of a kind's history while that kind has watches: it polls `eventsSince(last)` every interval and
 * offers each change, in order, to the live watches of its namespace (a watch across namespaces is in the fan-out
 * of each of its namespaces, and a change has one). Thousands of idle watches so cost this process one query per
 * interval per kind, and a write by any process on the database reaches them within an interval, because history
 * (not a message bus) is the source of truth.
 *
 * Correctness rests on storage's promise that versions become visible in commit order: nothing can appear later
 * below `last`. A watch that starts behind `last` catches up from the recent changes kept here, or from history
 * page by page, then goes live in the same synchronous step that checks it has caught up, so nothing falls between.
 */
export class KindPoller {
  /** Every change up to here has been read and offered. */
  last: number;
  /** `recent` holds every change in (floor, last]. */
  floor: number;
  private recent: Change[] = [];
  /** The newest change per object among `recent`, to find what a MODIFIED replaced without a query. */
  private latest = new Map<string, Change>();
  private readonly watchers = new Set<Watcher>();
  private readonly byNamespace = new Map<string, Set<Watcher>>();
  private readonly labelWatchers = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;
  private dueAt = Infinity;
  private freshenAt = 0;
  private failing = false;
  private batch = 0;

  constructor(
    private readonly storage: Storage,
    readonly type: GroupResource,
    private readonly present: (s: StoredObject) => Resource,
    start: number,
    private readonly opts: PollerOptions,
    private readonly onIdle: () => void,
  ) {
    this.last = this.floor = start;
    this.freshenAt = Date.now() + opts.freshenIntervalMs;
  }

  get size(): number {
    return this.watchers.size;
  }

  add(w: Watcher): void {
    this.watchers.add(w);
    for (const namespace of w.namespaces) {
      let set = this.byNamespace.get(namespace);
      if (!set) this.byNamespace.set(namespace, (set = new Set()));
      set.add(w);
      if (w.selectsLabels) this.labelWatchers.set(namespace, (this.labelWatchers.get(namespace) ?? 0) + 1);
    }
    this.dueAt = Math.min(this.dueAt, w.dueAt);
    this.schedule(this.watchers.size === 1 ? 0 : this.opts.pollIntervalMs);
  }

  remove(w: Watcher): void {
    if (!this.watchers.delete(w)) return;
    for (const namespace of w.namespaces) {
      const set = this.byNamespace.get(namespace);
      set?.delete(w);
      if (set?.size === 0) this.byNamespace.delete(namespace);
      if (w.selectsLabels) {
        const n = (this.labelWatchers.get(namespace) ?? 1) - 1;
        if (n > 0) this.labelWatchers.set(namespace, n);
        else this.labelWatchers.delete(namespace);
      }
    }
    if (this.watchers.size === 0) {
      this.stop();
      this.onIdle();
    }
  }

  /**
   * Makes a catching-up watcher live if it has caught up, feeding it the recent changes it lacks in the same step.
   * 'behind': it must read history first; 'resolve': look up what these changes replaced, then try again.
   */
  goLive(w: Watcher): GoLive {
    if (w.cursor >= this.last) {
      w.live = true;
      return { state: 'live' };
    }
    if (w.cursor < this.floor) return { state: 'behind' };
    const missing = this.recent.filter((c) => c.rv > w.cursor);
    const unresolved = w.selectsLabels ? missing.filter((c) => c.previous === undefined && w.watches(c.namespace)) : [];
    if (unresolved.length) return { state: 'resolve', changes: unresolved };
    for (const c of missing) w.offer(c);
    w.live = true;
    return { state: 'live' };
  }

  /**
   * One page of history after the watcher's cursor, for a watcher too far behind for `recent`. `seen` carries the
   * newest change per object from page to page (bounded), so that what a MODIFIED replaced is found without a query.
   */
  async readAfter(w: Watcher, seen: Map<string, Change>): Promise<Change[]> {
    const events = await this.storage.eventsSince(this.type, w.cursor, this.opts.pageSize);
    const changes = events.map((e) => new Change(e, this.present));
    if (w.selectsLabels) {
      if (seen.size > 4 * this.opts.pageSize) seen.clear();
      linkPrevious(changes, seen);
      await this.resolvePrevious(changes.filter((c) => w.watches(c.namespace)));
    }
    return changes;
  }

  /** Looks up, in history, what each MODIFIED change replaced (one query per change not found in memory). */
  async resolvePrevious(changes: readonly Change[]): Promise<void> {
    for (const c of changes) {
      if (c.previous !== undefined) continue;
      const [row] = await this.storage.objectHistory(c.event.key, { limit: 1, before: c.rv });
      c.previous = row && row.resourceVersion === c.event.previousResourceVersion ? { value: row.value, labels: labelsOf(row.value) } : null;
    }
  }

  /** Ends every watch of the kind and polls no more. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.watchers) w.end('stopped');
  }

  private schedule(ms: number): void {
    if (this.stopped || this.polling || this.timer) return;
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    this.polling = true;
    let full = false;
    try {
      const now = Date.now();
      let current: number | undefined;
      if (now >= this.freshenAt) {
        this.freshenAt = now + this.opts.freshenIntervalMs;
        current = (await this.storage.versions(this.type)).current;
      }
      const events = await this.storage.eventsSince(this.type, this.last, this.opts.pageSize);
      if (this.opts.onRead) for (const e of events) this.opts.onRead(Math.max(0, Date.now() / 1000 - e.resourceVersion / 1e6));
      full = events.length === this.opts.pageSize;
      const changes = events.map((e) => new Change(e, this.present));
      linkPrevious(changes, this.latest);
      await this.resolvePrevious(changes.filter((c) => c.previous === undefined && this.labelWatchers.has(c.namespace)));
      if (this.stopped) return;
      this.batch++;
      for (const c of changes) this.deliver(c);
      // Every version up to `current` was committed before it was read, so the page holds them all: the kind
      // is quiet up to there, and bookmarks and new watches may start from it.
      if (!full && current !== undefined && current > this.last) this.last = current;
      if (this.failing) this.opts.log.info('watch: reading history again', { ...this.type });
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.opts.log.warn('watch: reading history failed; retrying', { ...this.type, error: String(err) });
      this.failing = true;
    } finally {
      this.polling = false;
    }
    this.sweep(Date.now());
    this.schedule(full ? 0 : this.opts.pollIntervalMs);
  }

  private deliver(c: Change): void {
    this.recent.push(c);
    if (this.recent.length > this.opts.recentChanges) {
      const old = this.recent.shift()!;
      this.floor = old.rv;
      if (this.latest.get(keyOf(old)) === old) this.latest.delete(keyOf(old));
    }
    this.last = c.rv;
    const ws = this.byNamespace.get(c.namespace);
    if (!ws) return;
    for (const w of ws) {
      if (w.live) w.offer(c, this.batch);
      // Ended too slow: out of the fan-out at once, even though its consumer is not there to notice yet.
      if (w.ended) this.remove(w);
    }
  }

  /** Deadlines and bookmarks, looked at only when the earliest of them is due. */
  private sweep(now: number): void {
    if (now < this.dueAt) return;
    let next = Infinity;
    for (const w of this.watchers) {
      if (w.live) w.tick(now, this.last);
      else if (now >= w.opts.deadline) w.end('timeout');
      if (w.ended) this.remove(w);
      else next = Math.min(next, w.dueAt);
    }
    this.dueAt = next;
  }
}

/** Fills in `previous` of MODIFIED changes from `latest` (the newest change seen per object), in order. */
function linkPrevious(changes: readonly Change[], latest: Map<string, Change>): void {
  for (const c of changes) {
    if (c.previous === undefined) {
      const p = latest.get(keyOf(c));
      if (p && p.rv === c.event.previousResourceVersion) c.previous = { value: p.event.value, labels: p.labels };
    }
    latest.set(keyOf(c), c);
  }
}
