import type { Resource } from '../meta';
import type { WatchAction } from '../../storage';
import type { WatchEvent } from './watch-change';

/** What a caller with limited read access may see of a kind's objects (`registry.visibility(ctx, kind)`). */
export interface WatchAccess {
  /** Whether it may read the object now. */
  canRead(obj: Resource): Promise<boolean>;
  /**
   * Whether it could read a deleted object (its final state) just before the deletion: its permissions, and those
   * of folders deleted with it, are gone with it by now.
   */
  couldReadDeleted(obj: Resource): Promise<boolean>;
}

/** What an event came from, as far as visibility needs it. */
export interface EventSource {
  /** The stored change: a DELETED event of a MODIFIED change is an object leaving a label selection. */
  action: WatchAction;
  /** For a MODIFIED change, the object it replaced (at the change's version); undefined when history lost it. */
  previous(): Promise<Resource | undefined>;
}

/** Names remembered as not held by a watch that did not list; past this, they are forgotten (and looked up again). */
const MAX_HIDDEN = 10_000;

/**
 * What one watch of a caller with limited read access sees (lists are filtered the same way), as kube's cacheWatcher
 * treats a label selector: an object coming into sight (created, moved to a folder the caller reads) is ADDED, one
 * leaving it (moved out, into a folder the caller may not read) is DELETED, carrying the object as the caller could
 * see it last, never its new state; and a deleted object is DELETED for every watch that holds it or could read it
 * just before its deletion, whether the watch listed it or started from a resourceVersion.
 *
 * Whether the client holds an object is known for a watch that listed (it got the list) and for objects this watch
 * has shown or hidden since; otherwise (a watch from a resourceVersion) the object's previous state decides: what
 * the caller could read before a change is what it holds.
 *
 * Never shown: an object the caller cannot read, before or after. Not an event: a change of permissions alone (a
 * grant shows the objects it opens at their next change; a revocation hides them at their next change or deletion).
 *
 * @example
 *   const gate = new WatchVisibility(registry.visibility(ctx, kind)!, true);
 *   const ev = await gate.pass(event, source); // undefined when the caller may not see it
 */
export class WatchVisibility {
  private readonly shown = new Set<string>();
  /** Names known not to be held; only for watches that did not list (for the others, not shown is not held). */
  private readonly hidden = new Set<string>();

  constructor(
    private readonly access: WatchAccess,
    /** The watch started with a list: every object the client holds was shown by this watch. */
    private readonly listed: boolean,
  ) {}

  /** An object of the initial list (already filtered) was sent. */
  sent(obj: Resource): void {
    this.shown.add(obj.metadata.name);
  }

  async pass(ev: WatchEvent, source?: EventSource): Promise<WatchEvent | undefined> {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    const name = ev.object.metadata.name;
    const held = this.holds(name);
    if (ev.type === 'DELETED') {
      this.hide(name);
      if (source?.action === 'MODIFIED') return (held ?? (await this.access.canRead(ev.object))) ? ev : undefined;
      return held || (await this.access.couldReadDeleted(ev.object)) ? ev : undefined;
    }
    const now = await this.access.canRead(ev.object);
    if (ev.type === 'ADDED') {
      if (now) this.show(name);
      else this.hide(name);
      return now ? ev : undefined;
    }
    // MODIFIED: the state it replaced tells what the caller held when nothing else does, and what a leaving event carries.
    const previous = held === undefined || (held && !now) ? await source?.previous() : undefined;
    const before = held ?? (previous ? await this.access.canRead(previous) : now);
    if (now) {
      this.show(name);
      return before ? ev : { type: 'ADDED', object: ev.object };
    }
    this.hide(name);
    return before ? { type: 'DELETED', object: previous ?? identityOf(ev.object) } : undefined;
  }

  /** Whether the client holds the object: true, false, or undefined when this watch cannot know. */
  private holds(name: string): boolean | undefined {
    if (this.shown.has(name)) return true;
    return this.listed || this.hidden.has(name) ? false : undefined;
  }

  private show(name: string): void {
    this.shown.add(name);
    this.hidden.delete(name);
  }

  private hide(name: string): void {
    this.shown.delete(name);
    if (this.listed) return;
    if (this.hidden.size >= MAX_HIDDEN) this.hidden.clear();
    this.hidden.add(name);
  }
}

/**
 * An object reduced to what names it, for a DELETED event when its earlier state is lost: the caller learns that it
 * left, not what it became.
 */
function identityOf(obj: Resource): Resource {
  const { name, namespace, uid, resourceVersion, generation, creationTimestamp } = obj.metadata;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace, uid, resourceVersion, generation, creationTimestamp }, spec: {} };
}
