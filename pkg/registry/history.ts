import { StatusError } from '../errors';
import type { Resource } from '../meta';
import type { HistoryEvent, ResourceKey, Storage } from '../../storage';
import { decodeContinue, encodeContinue } from './continue-token';

/**
 * An object's versions are its generations: the writes that changed its spec. A write that changed only metadata
 * (labels, annotations) belongs to the version it followed. Each version is shown as the write that made it, so
 * its annotations (who wrote it, when, `svc.app/message`) are that write's.
 */
export interface ObjectVersion {
  generation: number;
  /** The object as the write that made this generation left it; `metadata.resourceVersion` is that write's. */
  object: Resource;
}

export interface HistoryOptions {
  /** At most this many versions (default: all). */
  limit?: number;
  /** Skips this many versions first (the legacy `start`); they are neither presented nor counted in `limit`. */
  offset?: number;
  /** The `continue` of a previous page: resume with the versions older than its last one. */
  continue?: string;
}

export interface HistoryPage {
  /** Newest first. */
  items: ObjectVersion[];
  /** Set when older versions remain: pass it back as `continue`. */
  continue?: string;
}

/** Rows are read from storage in batches of this many. */
const BATCH = 100;

/**
 * The history rows of the object's current life, newest first, older than `before`: a row of another uid or a
 * deletion is an earlier object of the same name, whose past is not this one's.
 */
async function* rowsOf(storage: Storage, key: ResourceKey, uid: string, before?: number): AsyncGenerator<HistoryEvent> {
  let cursor = before;
  for (;;) {
    const batch = await storage.objectHistory(key, { limit: BATCH, before: cursor });
    for (const row of batch) {
      const meta = (row.value as unknown as Resource).metadata;
      if (row.action === 'DELETED' || meta.uid !== uid) return;
      yield row;
    }
    if (batch.length < BATCH) return;
    cursor = batch[batch.length - 1].resourceVersion;
  }
}

/** The versions of the current life, newest first, each as the oldest row of its generation (the write that made it). */
async function* versionsOf(storage: Storage, key: ResourceKey, uid: string, before?: number): AsyncGenerator<HistoryEvent> {
  let pending: HistoryEvent | undefined;
  for await (const row of rowsOf(storage, key, uid, before)) {
    if (pending && generationOf(pending) !== generationOf(row)) yield pending;
    pending = row;
  }
  if (pending) yield pending;
}

const generationOf = (row: HistoryEvent) => (row.value as unknown as Resource).metadata.generation;

/**
 * The resourceVersion of the oldest version kept when an object keeps its newest `keep` (0 when it keeps every one).
 * Older versions are hidden from the write that pushed them out; compaction removes their rows only once they
 * leave the history window, as lists and watches resuming there may still need them.
 */
async function oldestKept(storage: Storage, key: ResourceKey, uid: string, keep: number | undefined): Promise<number> {
  if (keep === undefined) return 0;
  let n = 0;
  for await (const row of versionsOf(storage, key, uid)) if (++n === keep) return row.resourceVersion;
  return 0;
}

/** Where a history page resumes: a registry continue token naming the object and the version it stopped after. */
function resumeBefore(token: string | undefined, name: string): number | undefined {
  if (token === undefined) return undefined;
  const position = decodeContinue(token);
  if (position.after !== name) throw StatusError.badRequest('continue key is not valid: it belongs to another object');
  return position.resourceVersion;
}

/**
 * A page of the versions of `current` (the object as stored now), newest first; `present` turns a row into the
 * object clients see; with `keep`, only the newest `keep` versions exist (the kind's retention). The registry's
 * `history` calls this after checking the caller may read the object.
 *
 * @example
 *   const page = await historyPage(storage, key, current, { limit: 2 }, present);
 *   page.items.map((v) => v.generation); // [5, 4]
 *   await historyPage(storage, key, current, { limit: 2, continue: page.continue }, present); // [3, 2]
 */
export async function historyPage(
  storage: Storage,
  key: ResourceKey,
  current: Resource,
  opts: HistoryOptions,
  present: (row: HistoryEvent) => Resource,
  keep?: number,
): Promise<HistoryPage> {
  const items: ObjectVersion[] = [];
  let last: HistoryEvent | undefined;
  let skip = opts.offset ?? 0;
  const floor = await oldestKept(storage, key, current.metadata.uid, keep);
  for await (const row of versionsOf(storage, key, current.metadata.uid, resumeBefore(opts.continue, key.name))) {
    if (row.resourceVersion < floor) break;
    if (opts.limit !== undefined && items.length >= opts.limit) {
      return { items, continue: encodeContinue(last!.resourceVersion, key.name) };
    }
    last = row;
    if (skip > 0) {
      skip--;
      continue;
    }
    items.push({ generation: generationOf(row), object: present(row) });
  }
  return { items };
}

/** One generation of `current`'s history, or undefined when it has none such (or no longer keeps it). */
export async function historyVersion(
  storage: Storage,
  key: ResourceKey,
  current: Resource,
  generation: number,
  present: (row: HistoryEvent) => Resource,
  keep?: number,
): Promise<ObjectVersion | undefined> {
  const floor = await oldestKept(storage, key, current.metadata.uid, keep);
  for await (const row of versionsOf(storage, key, current.metadata.uid)) {
    if (row.resourceVersion < floor) return undefined;
    const g = generationOf(row);
    if (g === generation) return { generation: g, object: present(row) };
    if (g < generation) return undefined;
  }
  return undefined;
}
