/**
 * Server-side apply on a deduced schema (maps granular; lists and scalars atomic), following structured-merge-diff's
 * `Updater.Apply` and apimachinery's fieldmanager: merge the applied configuration into the live object, give the
 * applier exactly the fields it applied, remove the fields it applied last time and no longer does (unless another
 * manager owns them), and refuse to change a field another manager owns unless forced.
 */
import { StatusError, type StatusCause } from '../errors';
import { type JsonObject, jsonEqual, type ManagedFieldsEntry } from '../meta';
import {
  byKubeOrder,
  type Comparison,
  compare,
  decodeFields,
  encodeFields,
  isMap,
  isObject,
  minus,
  type Path,
  type PathSet,
  recordable,
  withoutSystemAnnotations,
} from './managed-fields';

/** kubectl's client-side apply annotation, which kubectl's server-side apply keeps in step (lastAppliedUpdater). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface ApplyInput {
  /** The stored object, as stored (not decorated); undefined when the apply creates it. */
  live: JsonObject | undefined;
  /** What is applied: the envelope with only the members a client may apply (see the registry). */
  config: JsonObject;
  previous: readonly ManagedFieldsEntry[];
  manager: string;
  apiVersion: string;
  time: string;
  force: boolean;
}

export interface ApplyOutput {
  /** The live object with the configuration merged in and the fields the applier dropped removed. */
  merged: JsonObject;
  managedFields: ManagedFieldsEntry[];
}

/**
 * @example applyConfiguration({ live, config: { spec: { title: 'b' } }, previous, manager: 'kubectl', ... })
 * // throws 409 `Apply failed with 1 conflict: conflict with "editor" using v1: .spec.title` when "editor" set the title
 */
export function applyConfiguration(input: ApplyInput): ApplyOutput {
  const { live, config, previous, manager, apiVersion, time, force } = input;
  const before = live ?? {};
  let merged = merge(before, config) as JsonObject;

  const applied = leaves(config);
  const isApplier = (e: ManagedFieldsEntry): boolean => e.operation === 'Apply' && e.manager === manager && !e.subresource;
  const mine = previous.find(isApplier);
  const lastSet = mine ? decodeFields(mine.fieldsV1) : new Set<string>();
  const others = previous.filter((e) => !isApplier(e)).map((entry) => ({ entry, set: decodeFields(entry.fieldsV1) }));

  merged = prune(merged, minus(lastSet, applied), [applied, ...others.map((o) => o.set)]);

  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  compare(withoutSystemAnnotations(before), withoutSystemAnnotations(merged), [], c);
  const changed = new Set([...c.added, ...c.modified]);
  const conflicts = others.flatMap(({ entry, set }) => [...set].filter((p) => changed.has(p)).map((p) => ({ entry, path: JSON.parse(p) as Path })));
  if (conflicts.length && !force) throw conflictError(conflicts);

  const result: ManagedFieldsEntry[] = [];
  for (const { entry, set } of others) {
    const kept = minus(set, c.removed, force ? changed : new Set());
    if (kept.size === set.size) result.push(entry);
    else if (kept.size > 0) result.push({ ...entry, fieldsV1: encodeFields(kept) });
  }
  if (applied.size > 0) {
    const fieldsV1 = encodeFields(applied);
    const unchanged = mine !== undefined && jsonEqual(mine.fieldsV1, fieldsV1) && jsonEqual(before, merged);
    // managedFieldsUpdater: the applier's time moves only when the object or its set changed.
    result.push({ manager, operation: 'Apply', apiVersion, time: unchanged ? mine.time : time, fieldsType: 'FieldsV1', fieldsV1 });
  }
  return { merged, managedFields: result.sort(byKubeOrder) };
}

/**
 * kube's lastAppliedUpdater: when kubectl applies server-side to an object that carries client-side apply's
 * annotation, the annotation is rewritten to the new configuration, so that a later client-side apply diffs
 * against it. Not a field of the applier: it is set after ownership is settled.
 */
export function syncLastApplied(merged: JsonObject, config: JsonObject, manager: string): JsonObject {
  const metadata = merged.metadata as JsonObject | undefined;
  const annotations = metadata?.annotations as Record<string, string> | undefined;
  if (manager !== 'kubectl' || annotations?.[LAST_APPLIED] === undefined) return merged;
  const configMeta = (config.metadata ?? {}) as JsonObject;
  const configAnnotations = { ...((configMeta.annotations ?? {}) as Record<string, string>) };
  delete configAnnotations[LAST_APPLIED];
  const { annotations: _a, ...restMeta } = configMeta;
  const lastApplied = { ...config, metadata: { ...restMeta, ...(Object.keys(configAnnotations).length ? { annotations: configAnnotations } : {}) } };
  return { ...merged, metadata: { ...metadata, annotations: { ...annotations, [LAST_APPLIED]: JSON.stringify(lastApplied) } } };
}

/** Objects merge member by member; anything else in the configuration replaces the live value. */
function merge(live: unknown, config: unknown): unknown {
  if (!isObject(live) || !isObject(config)) return structuredClone(config);
  const out: JsonObject = { ...live };
  for (const [k, v] of Object.entries(config)) out[k] = merge(live[k], v);
  return out;
}

/** The applier's set: every leaf of the configuration that field management records. */
function leaves(config: JsonObject): PathSet {
  const out: PathSet = new Set();
  const walk = (value: unknown, path: Path): void => {
    if (isMap(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, `f:${k}`]);
    else if (path.length > 0 && recordable(path)) out.add(JSON.stringify(path));
  };
  walk(withoutSystemAnnotations(config), []);
  return out;
}

/**
 * Removes what the applier applied last time and dropped now, deepest first, unless a manager still owns it or
 * something below it. A map is removed only once nothing is left in it (what no one applied stays, as
 * structured-merge-diff adds such items back), and a map the removals emptied goes too unless someone owns it.
 */
function prune(obj: JsonObject, dropped: PathSet, owned: PathSet[]): JsonObject {
  const ownedExactly = (encoded: string): boolean => owned.some((set) => set.has(encoded));
  const ownedBelow = (encoded: string): boolean => owned.some((set) => [...set].some((p) => p.startsWith(`${encoded.slice(0, -1)},`)));
  const paths = [...dropped].map((p) => JSON.parse(p) as Path).sort((a, b) => b.length - a.length);
  let out = obj;
  for (const path of paths) {
    const encoded = JSON.stringify(path);
    if (ownedExactly(encoded) || ownedBelow(encoded) || isMap(valueAt(out, path))) continue;
    out = removePath(out, path);
    for (let parent = path.slice(0, -1); parent.length > 1; parent = parent.slice(0, -1)) {
      const value = valueAt(out, parent);
      if (!isObject(value) || Object.keys(value).length > 0 || ownedExactly(JSON.stringify(parent))) break;
      out = removePath(out, parent);
    }
  }
  return out;
}

function valueAt(obj: JsonObject, path: Path): unknown {
  let node: unknown = obj;
  for (const p of path) node = isObject(node) ? node[p.slice(2)] : undefined;
  return node;
}

function removePath(obj: JsonObject, path: Path): JsonObject {
  const [head, ...rest] = path;
  const key = head.slice(2);
  if (!Object.hasOwn(obj, key)) return obj;
  const out = { ...obj };
  if (rest.length === 0) delete out[key];
  else if (isObject(out[key])) out[key] = removePath(out[key] as JsonObject, rest);
  return out;
}

/** `.spec.title`, as structured-merge-diff prints a path. */
const printPath = (path: Path): string => path.map((p) => `.${p.slice(2)}`).join('');

/** How kube's conflict messages name a manager (conflict.go printManager; entries carry no time there). */
function printManager(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
}

const comparePaths = (a: Path, b: Path): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
};

/** 409 Conflict in kube's words (NewConflictError), one FieldManagerConflict cause per field. */
function conflictError(conflicts: { entry: ManagedFieldsEntry; path: Path }[]): StatusError {
  const sorted = [...conflicts].sort((x, y) => {
    const m = printManager(x.entry) < printManager(y.entry) ? -1 : printManager(x.entry) > printManager(y.entry) ? 1 : 0;
    return m || comparePaths(x.path, y.path);
  });
  const causes: StatusCause[] = sorted.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.entry)}`, field: printPath(c.path) }));
  let message: string;
  if (sorted.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(sorted[0].entry)}: ${printPath(sorted[0].path)}`;
  } else {
    const lines: string[] = [];
    let current = '';
    for (const c of sorted) {
      const who = printManager(c.entry);
      if (who !== current) lines.push(`conflicts with ${who}:`);
      current = who;
      lines.push(`- ${printPath(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}
