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

const generationOf = (row: HistoryEvent) => (row.value as unknown as Resource).metadata.generation;

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
  const before = resumeBefore(opts.continue, key.name);
  // One more than the page: whether older versions remain.
  const limit = opts.limit === undefined ? undefined : opts.limit + 1;
  const rows = await storage.objectVersions(key, { uid: current.metadata.uid, keep, before, offset: opts.offset ?? 0, limit });
  const page = opts.limit === undefined ? rows : rows.slice(0, opts.limit);
  const items = page.map((row) => ({ generation: generationOf(row), object: present(row) }));
  const last = page[page.length - 1];
  return rows.length > page.length && last ? { items, continue: encodeContinue(last.resourceVersion, key.name) } : { items };
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
  if (!Number.isSafeInteger(generation)) return undefined;
  const [row] = await storage.objectVersions(key, { uid: current.metadata.uid, keep, generation, limit: 1 });
  return row ? { generation: generationOf(row), object: present(row) } : undefined;
}
