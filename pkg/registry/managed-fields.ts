/**
 * `metadata.managedFields` for Update operations (create, update, merge/JSON patch), computed the way
 * kube-apiserver's fieldmanager does for objects without a structural schema: objects are granular,
 * lists are atomic. Sources followed: structured-merge-diff `merge/update.go` and `typed.Compare`,
 * apimachinery `util/managedfields/internal/{managedfieldsupdater,stripmeta,managedfields,skipnonapplied}.go`.
 */
import { Annotations, type JsonObject, jsonEqual, type ManagedFieldsEntry } from '../meta';

/** kube's `FieldManagerMaxLength`, in bytes. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** A field path as FieldsV1 keys, e.g. `["f:spec", "f:title"]`; sets hold it JSON-encoded. */
export type Path = string[];
export type PathSet = Set<string>;

/**
 * Stripped from every writer's set like kube's stripMeta manager (plus deletionTimestamp and
 * deletionGracePeriodSeconds, set only by the registry's delete).
 */
const STRIPPED_META = new Set(
  [
    'name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds',
    'managedFields', 'selfLink',
  ].map((k) => `f:${k}`),
);

/** The registry's own annotations (createdBy, updatedBy, updatedTimestamp): no manager owns them. */
const SYSTEM_ANNOTATIONS: readonly string[] = [Annotations.createdBy, Annotations.updatedBy, Annotations.updatedTimestamp];

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-empty object: the only value that is walked into; everything else is a leaf. */
export function isMap(v: unknown): v is JsonObject {
  return isObject(v) && Object.keys(v).length > 0;
}

/**
 * The object as field management sees it: without the registry's annotations, which change on every write and
 * belong to no manager (an annotations map holding only them counts as absent).
 */
export function withoutSystemAnnotations(obj: JsonObject): JsonObject {
  const metadata = obj.metadata as JsonObject | undefined;
  const annotations = metadata?.annotations;
  if (!isObject(annotations) || !SYSTEM_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k))) return obj;
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !SYSTEM_ANNOTATIONS.includes(k)));
  const { annotations: _all, ...rest } = metadata!;
  return { ...obj, metadata: Object.keys(kept).length ? { ...rest, annotations: kept } : rest };
}

/**
 * Whether a path may be recorded. `metadata` itself is stripped but its other children are not;
 * status belongs to the status subresource (kube resets it on main-resource writes).
 */
export function recordable(path: Path, subresource?: string): boolean {
  const [top, second] = path;
  if (top === 'f:apiVersion' || top === 'f:kind') return false;
  if (top === 'f:status') return subresource === 'status';
  if (top === 'f:metadata') return second !== undefined && !STRIPPED_META.has(second);
  return true;
}

/** Adds `path` (unless `self` is false) and every path below it. */
function collect(value: unknown, path: Path, out: PathSet, self = true): void {
  if (self) out.add(JSON.stringify(path));
  if (isMap(value)) for (const [k, v] of Object.entries(value)) collect(v, [...path, `f:${k}`], out);
}

export interface Comparison {
  added: PathSet;
  modified: PathSet;
  removed: PathSet;
}

/**
 * typed.Compare on a deduced schema: leaves that differ are modified; an added or removed subtree
 * contributes its own path (encoded as "." for an object) and every path below it.
 */
export function compare(oldObj: JsonObject, newObj: JsonObject, path: Path, c: Comparison): void {
  for (const k of new Set([...Object.keys(oldObj), ...Object.keys(newObj)])) {
    const p = [...path, `f:${k}`];
    const a = oldObj[k];
    const b = newObj[k];
    if (!Object.hasOwn(newObj, k)) collect(a, p, c.removed);
    else if (!Object.hasOwn(oldObj, k)) collect(b, p, c.added);
    else if (isObject(a) && isObject(b) && (isMap(a) || isMap(b))) compare(a, b, p, c);
    else if (isMap(a) || isMap(b)) {
      // An object turned into a leaf or back: the path itself changed value.
      c.modified.add(JSON.stringify(p));
      collect(a, p, c.removed, false);
      collect(b, p, c.added, false);
    } else if (!jsonEqual(a, b)) c.modified.add(JSON.stringify(p));
  }
}

/** FieldsV1 → paths. `"."` marks the enclosing object itself; an empty object is a leaf. */
export function decodeFields(fields: JsonObject, path: Path = [], out: PathSet = new Set()): PathSet {
  for (const [k, v] of Object.entries(fields)) {
    if (k === '.') {
      if (path.length > 0) out.add(JSON.stringify(path));
    } else if (isMap(v)) decodeFields(v, [...path, k], out);
    else out.add(JSON.stringify([...path, k]));
  }
  return out;
}

/** Paths → FieldsV1 with sorted keys: "." marks a member that also has members below it, as kube writes it. */
export function encodeFields(set: Iterable<string>): JsonObject {
  const root: JsonObject = {};
  for (const encoded of set) {
    let node = root;
    for (const key of JSON.parse(encoded) as Path) node = (node[key] ??= {}) as JsonObject;
    node['.'] = {};
  }
  const tidy = (node: JsonObject): JsonObject => {
    const keys = Object.keys(node).sort();
    return keys.length === 1 && keys[0] === '.' ? {} : Object.fromEntries(keys.map((k) => [k, tidy(node[k] as JsonObject)]));
  };
  return tidy(root);
}

/**
 * FieldsV1 trie of the fields set in `obj`: its leaves, without "." entries and without the
 * fields that are never recorded (status too, unless `subresource` is "status").
 *
 * @example fieldsOf({ metadata: { name: 'x', labels: { a: '1' } }, spec: { title: 't' } })
 * // {"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:title":{}}}
 */
export function fieldsOf(obj: JsonObject, subresource?: string): JsonObject {
  const leaves: PathSet = new Set();
  const walk = (value: unknown, path: Path): void => {
    if (isMap(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, `f:${k}`]);
    else if (path.length > 0 && recordable(path, subresource)) leaves.add(JSON.stringify(path));
  };
  walk(obj, []);
  return encodeFields(leaves);
}

/** FieldsV1 of a recorded path holding `value`: the path itself ("." when it has members) and every path below it. */
function everyField(value: unknown): JsonObject {
  if (!isMap(value)) return {};
  const node: JsonObject = { '.': {} };
  for (const k of Object.keys(value).map((key) => `f:${key}`).sort()) node[k] = everyField(value[k.slice(2)]);
  return node;
}

/**
 * FieldsV1 of a new object's writer: every recordable path of `obj`, "." marks included, with sorted keys. What
 * comparing the object with nothing gives (encodeFields of the added paths that are recordable), built directly:
 * a create pays one walk instead of encoding, decoding and filtering every path as a string.
 *
 * @example createdFields({ apiVersion: 'v1', metadata: { name: 'x', labels: { a: '1' } }, spec: { title: 't' } })
 * // {"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:title":{}}}
 */
export function createdFields(obj: JsonObject, subresource?: string): JsonObject {
  const root: JsonObject = {};
  for (const top of Object.keys(obj).map((key) => `f:${key}`).sort()) {
    const value = obj[top.slice(2)];
    if (!recordable([top], subresource) && top !== 'f:metadata') continue;
    if (top !== 'f:metadata') {
      root[top] = everyField(value);
      continue;
    }
    // metadata itself is never recorded, its members are (but the stripped ones).
    if (!isMap(value)) continue;
    const node: JsonObject = {};
    for (const k of Object.keys(value).map((key) => `f:${key}`).sort()) if (recordable([top, k], subresource)) node[k] = everyField(value[k.slice(2)]);
    if (Object.keys(node).length) root[top] = node;
  }
  return root;
}

const seconds = (time: string): number => Math.floor((Date.parse(time) || 0) / 1000);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** kube's sortEncodedManagedFields: Apply before Update, then oldest first, then manager, apiVersion, subresource. */
export function byKubeOrder(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    cmp(p.operation, q.operation) ||
    seconds(p.time) - seconds(q.time) ||
    cmp(p.manager, q.manager) ||
    cmp(p.apiVersion, q.apiVersion) ||
    cmp(p.subresource ?? '', q.subresource ?? '')
  );
}

export const minus = (set: PathSet, ...others: PathSet[]): PathSet =>
  new Set([...set].filter((p) => !others.some((o) => o.has(p))));

/**
 * managedFields after an Update-operation write by `manager`.
 * `previous` is the old object's managedFields ([] on create); `oldObj` is undefined on create.
 *
 * Fields this write added or changed move to the writer; fields it removed leave every set; a write
 * that changes no recorded field returns `previous` as it was.
 *
 * @example updateManagedFields({ previous: [], oldObj: undefined, newObj, manager: 'kubectl-create',
 *   apiVersion: 'dashboard.svc.app/v1', time: '2025-01-01T00:00:00Z' })
 * // [{ manager: 'kubectl-create', operation: 'Update', ..., fieldsV1: {"f:spec":{".":{},"f:title":{}}} }]
 */
export function updateManagedFields(args: {
  previous: readonly ManagedFieldsEntry[];
  oldObj: JsonObject | undefined;
  newObj: JsonObject;
  manager: string;
  apiVersion: string;
  time: string;
  subresource?: string;
}): ManagedFieldsEntry[] {
  const { previous, oldObj, newObj, manager, apiVersion, time, subresource } = args;
  // kube's skipNonApplied manager: an existing object without managedFields stays untracked.
  if (oldObj !== undefined && previous.length === 0) return [];
  if (oldObj === undefined && previous.length === 0) {
    // A create: every recordable field is the writer's.
    const fieldsV1 = createdFields(withoutSystemAnnotations(newObj), subresource);
    if (!Object.keys(fieldsV1).length) return [];
    return [{ manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) }];
  }

  const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  compare(withoutSystemAnnotations(oldObj ?? {}), withoutSystemAnnotations(newObj), [], c);
  const keep = (set: PathSet): PathSet => new Set([...set].filter((p) => recordable(JSON.parse(p) as Path, subresource)));
  const removed = keep(c.removed);
  const changed = keep(new Set([...c.added, ...c.modified]));
  if (removed.size === 0 && changed.size === 0) return [...previous];

  // Update entries are identified by manager, apiVersion and subresource (BuildManagerIdentifier).
  const isWriter = (e: ManagedFieldsEntry): boolean =>
    e.operation === 'Update' && e.manager === manager && e.apiVersion === apiVersion && (e.subresource ?? '') === (subresource ?? '');

  const result: ManagedFieldsEntry[] = [];
  let writerSet: PathSet = new Set();
  let writerEntry: ManagedFieldsEntry | undefined;
  for (const entry of previous) {
    const set = decodeFields(entry.fieldsV1);
    if (isWriter(entry)) {
      writerEntry = entry;
      writerSet = minus(set, removed);
      continue;
    }
    const kept = minus(set, removed, changed);
    if (kept.size === set.size) result.push(entry);
    else if (kept.size > 0) result.push({ ...entry, fieldsV1: encodeFields(kept) });
  }

  if (changed.size > 0) {
    // managedFieldsUpdater: the writer took fields, so its entry gets the new time.
    result.push({
      manager,
      operation: 'Update',
      apiVersion,
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: encodeFields(new Set([...writerSet, ...changed])),
      ...(subresource ? { subresource } : {}),
    });
  } else if (writerEntry && writerSet.size > 0) {
    // A write that only removed fields keeps the writer's time.
    result.push({ ...writerEntry, fieldsV1: encodeFields(writerSet) });
  }
  return result.sort(byKubeOrder);
}

/** A managedFields entry kube's DecodeManagedFields accepts, or undefined. */
function wellFormed(v: unknown): ManagedFieldsEntry | undefined {
  if (!isObject(v)) return undefined;
  const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = v;
  if (operation !== 'Apply' && operation !== 'Update') return undefined;
  if (typeof apiVersion !== 'string' || apiVersion === '' || fieldsType !== 'FieldsV1') return undefined;
  if ((manager !== undefined && typeof manager !== 'string') || (time !== undefined && typeof time !== 'string')) return undefined;
  if ((fieldsV1 !== undefined && !isObject(fieldsV1)) || (subresource !== undefined && typeof subresource !== 'string')) return undefined;
  return {
    manager: manager ?? '',
    operation,
    apiVersion,
    ...(time !== undefined ? { time } : {}),
    fieldsType,
    fieldsV1: (fieldsV1 ?? {}) as JsonObject,
    ...(subresource ? { subresource } : {}),
  } as ManagedFieldsEntry;
}

/**
 * The managedFields a write starts from (kube's decodeLiveOrNew). Entries the request carries replace the stored
 * ones when they are non-empty and well-formed (kubectl's migration from client-side to server-side apply relies
 * on it); `[]` or `[{}]` clears them; absent or malformed ones keep the stored ones, so that clients unaware of
 * managedFields never drop them.
 *
 * @example managedFieldsFromRequest([{}], stored) // []
 * @example managedFieldsFromRequest(undefined, stored) // stored
 */
export function managedFieldsFromRequest(requested: unknown, stored: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  if (!Array.isArray(requested)) return [...stored];
  if (requested.length === 0 || (requested.length === 1 && isObject(requested[0]) && Object.keys(requested[0]).length === 0)) return [];
  const entries = requested.map(wellFormed);
  return entries.every((e) => e !== undefined) ? (entries as ManagedFieldsEntry[]) : [...stored];
}

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const isPrint = (ch: string): boolean => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch);

/**
 * kube's default manager name from a User-Agent (prefixFromUserAgent): the part before the first '/',
 * without unprintable characters, cut to 128 bytes; "unknown" when that is empty.
 *
 * @example defaultFieldManager('kubectl/v1.32.0 (linux/amd64)') // 'kubectl'
 */
export function defaultFieldManager(userAgent: string | undefined): string {
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]) {
    if (!isPrint(ch)) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out || 'unknown';
}

const GO_ESCAPES: Record<string, string> = { '\x07': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v', '"': '"', '\\': '\\' };

/** Go's %q (strconv.Quote), used in the invalid-value message. */
function goQuote(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const hex = (width: number): string => cp.toString(16).padStart(width, '0');
    if (GO_ESCAPES[ch]) out += `\\${GO_ESCAPES[ch]}`;
    else if (isPrint(ch)) out += ch;
    else out += cp < 0x80 ? `\\x${hex(2)}` : cp < 0x10000 ? `\\u${hex(4)}` : `\\U${hex(8)}`;
  }
  return `"${out}"`;
}

/**
 * undefined when valid; else the message of the first 422 cause kube reports on field "fieldManager"
 * (ValidateFieldManager: at most 128 bytes, every character printable).
 *
 * @example validateFieldManager('a\nb') // 'Invalid value: "a\\nb": invalid character U+000A (at position 1)'
 */
export function validateFieldManager(name: string): string | undefined {
  if (Buffer.byteLength(name) > FIELD_MANAGER_MAX_LENGTH) {
    return `Too long: may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes`;
  }
  let position = 0; // a byte offset, as Go's range over a string gives
  for (const ch of name) {
    if (!isPrint(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return `Invalid value: ${goQuote(name)}: invalid character U+${code} (at position ${position})`;
    }
    position += Buffer.byteLength(ch);
  }
  return undefined;
}
