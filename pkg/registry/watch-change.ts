import type { JsonObject, KindRegistration, Resource } from '../meta';
import type { HistoryEvent, StoredObject } from '../../storage';
import { type FieldRequirement, type LabelRequirement, matchesFields, matchesLabels } from './selectors';

/** `{kind, apiVersion, metadata: {resourceVersion}}`: what a BOOKMARK carries, as kube sends for a custom resource. */
export interface BookmarkObject {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; annotations?: Record<string, string> };
}

/** The `Status` an ERROR event carries. */
export interface WatchStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: JsonObject;
  code: number;
}

/**
 * One line of a watch stream. Objects are shared between the watches that receive the same change (that is what
 * keeps fan-out cheap): treat them as read-only.
 */
export type WatchEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: Resource }
  | { type: 'BOOKMARK'; object: BookmarkObject }
  | { type: 'ERROR'; object: WatchStatus };

/** The annotation of the bookmark that ends the initial events of a `sendInitialEvents=true` watch. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

export function bookmark(kind: KindRegistration, resourceVersion: number, initialEventsEnd = false): WatchEvent {
  return {
    type: 'BOOKMARK',
    object: {
      kind: kind.kind,
      apiVersion: `${kind.group}/${kind.version}`,
      metadata: { resourceVersion: String(resourceVersion), ...(initialEventsEnd ? { annotations: { [INITIAL_EVENTS_END]: 'true' } } : {}) },
    },
  };
}

export function watchError(code: number, reason: string, message: string, details?: JsonObject): WatchEvent {
  return { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code } };
}

/** kube's watch cache wording: `too old resource version: 5 (9)`. */
export function expired(asked: number, oldest: number): WatchEvent {
  return watchError(410, 'Expired', `too old resource version: ${asked} (${oldest})`);
}

/** What a change replaced, for the selector checks of MODIFIED events. */
export interface PreviousState {
  value: JsonObject;
  labels: Record<string, string> | undefined;
}

/**
 * One history row on its way to watches, presented at most once however many watches receive it.
 * `previous` is what a MODIFIED replaced: `undefined` until looked up, `null` when there is none to find.
 */
export class Change {
  previous: PreviousState | null | undefined;
  private presented: Resource | undefined;
  private leaving: Resource | undefined;

  constructor(
    readonly event: HistoryEvent,
    private readonly present: (s: StoredObject) => Resource,
  ) {
    this.previous = event.action === 'MODIFIED' ? undefined : null;
  }

  get rv(): number {
    return this.event.resourceVersion;
  }

  get namespace(): string {
    return this.event.key.namespace;
  }

  get name(): string {
    return this.event.key.name;
  }

  get labels(): Record<string, string> | undefined {
    return labelsOf(this.event.value);
  }

  /** The object as GET shows it, at this change's version (for DELETED: the final object at the delete's version). */
  object(): Resource {
    return (this.presented ??= this.present(this.event));
  }

  /** What a watch whose selector the object just left receives: the previous object at this change's version. */
  leftObject(): Resource {
    if (!this.previous) return this.object();
    return (this.leaving ??= this.present({ ...this.event, value: this.previous.value }));
  }
}

export function labelsOf(value: JsonObject): Record<string, string> | undefined {
  return (value.metadata as { labels?: Record<string, string> } | undefined)?.labels;
}

/** What one watch selects, besides its namespace. */
export interface WatchSelection {
  labels: readonly LabelRequirement[];
  fields: readonly FieldRequirement[];
}

/**
 * The event a watch sees for a change, or undefined, as kube's cacheWatcher decides it: an object entering the
 * selection is ADDED, one leaving it is DELETED (carrying its previous content at the new version), one staying is
 * MODIFIED. Field selectors name only `metadata.name` and `metadata.namespace`, which never change, so only labels
 * can move an object in or out.
 */
export function eventFor(sel: WatchSelection, c: Change): WatchEvent | undefined {
  if (sel.fields.length && !matchesFields(sel.fields, { 'metadata.name': c.name, 'metadata.namespace': c.namespace })) return undefined;
  const action = c.event.action;
  if (!sel.labels.length) return { type: action, object: c.object() };
  const now = matchesLabels(sel.labels, c.labels);
  if (action === 'ADDED') return now ? { type: 'ADDED', object: c.object() } : undefined;
  if (action === 'DELETED') return now ? { type: 'DELETED', object: c.object() } : undefined;
  // An unknown previous state (history compacted away) reads as unchanged labels.
  const before = c.previous ? matchesLabels(sel.labels, c.previous.labels) : now;
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: c.object() };
  return before ? { type: 'DELETED', object: c.leftObject() } : undefined;
}
