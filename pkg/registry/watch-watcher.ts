import type { KindRegistration } from '../meta';
import { bookmark, type Change, eventFor, type WatchEvent, type WatchSelection } from './watch-change';

export interface WatcherOptions {
  kind: KindRegistration;
  /** The namespaces watched: one, or several for a watch across namespaces. */
  namespaces: readonly string[];
  selection: WatchSelection;
  /** Deliver only changes after this version. */
  after: number;
  /** When the watch ends (epoch ms). */
  deadline: number;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  /**
   * Events a watch may still have waiting when the next batch of changes arrives; more, and it is ended (the
   * client resumes from the last version it got). A batch itself is delivered whole, so a watch that keeps up
   * may briefly hold up to this plus one batch.
   */
  maxQueue: number;
}

/** kube sends the last periodic bookmark this long before the watch times out. */
const PRE_TIMEOUT_BOOKMARK_MS = 2000;

/**
 * One watch's place in its kind's fan-out: a bounded queue, what it selects and how far it has got. An idle watcher
 * is this object and one pending promise, no timer and no query: the kind's poller drives deadlines and bookmarks.
 */
export class Watcher {
  /** Every change up to here has been considered for this watch. */
  cursor: number;
  /** Live watchers are offered every change the poller reads; the others are still catching up on their own. */
  live = false;
  ended = false;
  /** Why the watch ended early, for logs: 'overflow' | 'timeout' | 'stopped' | 'closed'. */
  endReason: string | undefined;
  nextBookmarkAt: number;
  private batch = -1;
  private queue: WatchEvent[] = [];
  /** The change behind each queued event, for what visibility needs to know of it (see {@link sourceOf}). */
  private readonly sources = new WeakMap<WatchEvent, Change>();
  private head = 0;
  private wake: (() => void) | undefined;
  private readonly watched: ReadonlySet<string>;

  constructor(readonly opts: WatcherOptions) {
    this.cursor = opts.after;
    this.nextBookmarkAt = this.bookmarkAfter(Date.now());
    this.watched = new Set(opts.namespaces);
  }

  get namespaces(): readonly string[] {
    return this.opts.namespaces;
  }

  /** Whether changes of this namespace are this watch's. */
  watches(namespace: string): boolean {
    return this.watched.has(namespace);
  }

  get selectsLabels(): boolean {
    return this.opts.selection.labels.length > 0;
  }

  /** When the poller should next look at this watcher (its deadline or its next bookmark). */
  get dueAt(): number {
    return Math.min(this.opts.deadline, this.nextBookmarkAt);
  }

  get pending(): number {
    return this.queue.length - this.head;
  }

  /**
   * The event this watch sees for a change, taken in version order; a change at or below the cursor was already
   * considered (catch-up and live delivery overlap) and gives nothing.
   */
  consider(c: Change): WatchEvent | undefined {
    if (this.ended || c.rv <= this.cursor) return undefined;
    this.cursor = c.rv;
    const ev = this.watched.has(c.namespace) ? eventFor(this.opts.selection, c) : undefined;
    if (ev) this.sources.set(ev, c);
    return ev;
  }

  /** The change an event of this watch came from (none for bookmarks). */
  sourceOf(ev: WatchEvent): Change | undefined {
    return this.sources.get(ev);
  }

  /** Queues the event a change gives this watch, if any; `batch` numbers the poller's reads (see maxQueue). */
  offer(c: Change, batch?: number): void {
    if (batch !== undefined && batch !== this.batch) {
      this.batch = batch;
      if (this.pending > this.opts.maxQueue) return this.end('overflow');
    }
    const ev = this.consider(c);
    if (ev) this.enqueue(ev);
  }

  /** Ends the watch when it is due, or queues its bookmark; bookmarks never end a watch (dropped when full). */
  tick(now: number, position: number): void {
    if (this.ended) return;
    if (now >= this.opts.deadline) return this.end('timeout');
    if (now < this.nextBookmarkAt) return;
    this.nextBookmarkAt = this.bookmarkAfter(now);
    if (this.pending < this.opts.maxQueue) this.enqueue(bookmark(this.opts.kind, Math.max(this.cursor, position)));
  }

  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.endReason = reason;
    this.queue = [];
    this.head = 0;
    this.wakeUp();
  }

  /** The next event, or undefined once the watch has ended. */
  async take(): Promise<WatchEvent | undefined> {
    while (!this.ended) {
      if (this.head < this.queue.length) {
        const ev = this.queue[this.head++];
        if (this.head === this.queue.length) {
          this.queue = [];
          this.head = 0;
        }
        return ev;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return undefined;
  }

  private enqueue(ev: WatchEvent): void {
    this.queue.push(ev);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Roughly every interval, and once more just before the deadline, as kube's cacher schedules them. */
  private bookmarkAfter(now: number): number {
    if (!this.opts.bookmarks) return Infinity;
    const next = Math.min(now + this.opts.bookmarkIntervalMs, this.opts.deadline - PRE_TIMEOUT_BOOKMARK_MS);
    return next > now ? next : Infinity;
  }
}
