import type { Resource } from '../meta';
import type { WatchEvent } from './watch-change';

/**
 * What one watch of a caller with limited read access sees (lists are filtered the same way): events of objects
 * it may read. An object it was shown and may no longer read (moved to a folder it cannot see, its permissions
 * changed) leaves the watch as DELETED, as an object leaving a label selector does; a deletion is shown when the
 * object was shown to this watch or is readable still.
 *
 * Known limit: permissions go with the object they guard, so a watch resumed from a resourceVersion (not from a
 * list) may miss the deletion of an object only its own permissions let the caller read.
 *
 * @example
 *   const gate = new WatchVisibility((obj) => access.canRead(obj));
 *   const ev = await gate.pass(event); // undefined when the caller may not see it
 */
export class WatchVisibility {
  private readonly shown = new Set<string>();

  constructor(private readonly visible: (obj: Resource) => Promise<boolean>) {}

  /** An object of the initial list (already filtered) was sent. */
  listed(obj: Resource): void {
    this.shown.add(obj.metadata.name);
  }

  async pass(ev: WatchEvent): Promise<WatchEvent | undefined> {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    const name = ev.object.metadata.name;
    const wasShown = this.shown.has(name);
    if (ev.type === 'DELETED') {
      this.shown.delete(name);
      return wasShown || (await this.visible(ev.object)) ? ev : undefined;
    }
    if (await this.visible(ev.object)) {
      this.shown.add(name);
      return ev;
    }
    if (!wasShown) return undefined;
    this.shown.delete(name);
    return { type: 'DELETED', object: ev.object };
  }
}
