import { type StatusCause, StatusError } from '../errors';
import { type FieldRequirement, type LabelRequirement, parseFieldSelector, parseLabelSelector } from './selectors';

/** The query parameters of a watch, as the HTTP layer read them (strings and booleans, not yet checked). */
export interface WatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks?: boolean;
  /** Unset and false differ: unset is the legacy behaviour chosen by resourceVersion. */
  sendInitialEvents?: boolean;
  /** 0 or unset: kube-apiserver's default, a random time between 30 and 60 minutes. */
  timeoutSeconds?: number;
}

/** Where a watch starts, decided once from its options. */
export type WatchStart =
  /** Synthetic ADDED events from a consistent list, then the changes after the list's version. */
  | { from: 'list'; endBookmark: boolean; notOlderThan?: number }
  /** The changes after the newest version. */
  | { from: 'now' }
  /** The changes after this version (410 Expired when history no longer reaches back to it). */
  | { from: 'version'; resourceVersion: number };

export interface WatchPlan {
  start: WatchStart;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  bookmarks: boolean;
  timeoutMs: number;
}

/** kube-apiserver's `--min-request-timeout`: a watch without timeoutSeconds lasts between this and twice this. */
const MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/**
 * Checks a watch's options as kube-apiserver does (`ValidateListOptions` for watches, then the cacher's reading of
 * resourceVersion) and decides where it starts:
 *
 * | sendInitialEvents | resourceVersion | start |
 * |---|---|---|
 * | unset | unset or "0" | list, then changes |
 * | unset | N | changes after N |
 * | true (needs resourceVersionMatch=NotOlderThan) | any | list (at least as new as N), end bookmark, changes |
 * | false (idem) | unset or "0" / N | changes after now / after N |
 *
 * @throws StatusError 400 for a malformed resourceVersion, timeoutSeconds or selector; 422 `ListOptions.meta.k8s.io
 *   "" is invalid` for a forbidden combination of sendInitialEvents and resourceVersionMatch.
 * @example
 *   planWatch({ resourceVersion: '0' }).start; // { from: 'list', endBookmark: false }
 */
export function planWatch(o: WatchOptions, random: () => number = Math.random): WatchPlan {
  const rv = parseWatchResourceVersion(o.resourceVersion);
  const labels = parseLabelSelector(o.labelSelector);
  const fields = parseFieldSelector(o.fieldSelector);
  const timeout = o.timeoutSeconds;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 0)) {
    throw StatusError.badRequest(`invalid timeoutSeconds ${JSON.stringify(timeout)}: must be a non-negative integer`);
  }
  checkInitialEventsOptions(o);

  let start: WatchStart;
  if (o.sendInitialEvents === true) {
    start = { from: 'list', endBookmark: o.allowWatchBookmarks === true, ...(rv ? { notOlderThan: rv } : {}) };
  } else if (rv) {
    start = { from: 'version', resourceVersion: rv };
  } else {
    start = o.sendInitialEvents === false ? { from: 'now' } : { from: 'list', endBookmark: false };
  }
  const seconds = timeout ? timeout : MIN_REQUEST_TIMEOUT_SECONDS * (1 + random());
  return { start, labels, fields, bookmarks: o.allowWatchBookmarks === true, timeoutMs: Math.round(seconds * 1000) };
}

/** `undefined` for unset, "" and "0" (all three mean "any version": start from a list or from now). */
export function parseWatchResourceVersion(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '' || rv === '0') return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(rv)) {
    throw StatusError.badRequest(`invalid resourceVersion ${JSON.stringify(rv)}: must be a non-negative integer`);
  }
  return Number(rv);
}

/** kube-apiserver's `validateWatchOptions`, with the WatchList feature on; errors are 422 on ListOptions. */
function checkInitialEventsOptions(o: WatchOptions): void {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch ?? '';
  const forbidden = (message: string) => causes.push({ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: `Forbidden: ${message}` });
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    forbidden('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  }
  if (match !== '') {
    if (o.sendInitialEvents === undefined) forbidden('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    if (match !== 'NotOlderThan') {
      causes.push({
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"`,
      });
    }
  }
  if (causes.length) throw StatusError.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', causes);
}
