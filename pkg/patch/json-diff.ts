/**
 * Differences between two JSON values, in two shapes: a delta in the jsondiffpatch format (what the anchor's
 * `delta` diff answers, and what jsondiffpatch can apply or render), and a flat list of changes addressed by JSON
 * Pointers. Arrays are compared index by index (no move detection): small, predictable, and enough to show what a
 * save changed. Hand-written rather than a dependency: the two shapes are a few dozen lines over plain JSON.
 */

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * The jsondiffpatch delta turning `a` into `b`, undefined when they are equal: an added value is `[new]`, a
 * replaced one `[old, new]`, a removed one `[old, 0, 0]`; objects nest a delta per changed key; arrays are
 * `{_t: 'a', '<i>': ..., '_<i>': [old, 0, 0]}` (a changed scalar item is removed at `_i` and added at `i`).
 *
 * @example jsonDelta({ title: 'A', tags: ['x'] }, { title: 'B', tags: ['x', 'y'] })
 *   // { title: ['A', 'B'], tags: { _t: 'a', 1: ['y'] } }
 */
export function jsonDelta(a: unknown, b: unknown): unknown {
  if (jsonEqual(a, b)) return undefined;
  if (isObject(a) && isObject(b)) {
    const entries: [string, unknown][] = [];
    for (const k of Object.keys(a)) {
      if (!Object.hasOwn(b, k)) entries.push([k, [a[k], 0, 0]]);
      else {
        const d = jsonDelta(a[k], b[k]);
        if (d !== undefined) entries.push([k, d]);
      }
    }
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) entries.push([k, [b[k]]]);
    // fromEntries defines own properties: a key named __proto__ stays a key.
    return Object.fromEntries(entries);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const entries: [string, unknown][] = [['_t', 'a']];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= b.length) entries.push([`_${i}`, [a[i], 0, 0]]);
      else if (i >= a.length) entries.push([String(i), [b[i]]]);
      else if (!jsonEqual(a[i], b[i])) {
        const nested = (isObject(a[i]) && isObject(b[i])) || (Array.isArray(a[i]) && Array.isArray(b[i]));
        if (nested) entries.push([String(i), jsonDelta(a[i], b[i])]);
        else entries.push([`_${i}`, [a[i], 0, 0]], [String(i), [b[i]]]);
      }
    }
    return Object.fromEntries(entries);
  }
  return [a, b];
}

/** One difference: `path` is a JSON Pointer (RFC 6901) into both values. */
export interface JsonChange {
  op: 'add' | 'remove' | 'replace';
  path: string;
  /** What `b` holds there (add, replace). */
  value?: unknown;
  /** What `a` held there (remove, replace). */
  oldValue?: unknown;
}

const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Every difference between `a` and `b`, deepest first reached, in key order: the leaves that differ, or a whole
 * value where the two differ in type.
 *
 * @example jsonChanges({ title: 'A', tags: ['x'] }, { title: 'B', tags: [] })
 *   // [{ op: 'replace', path: '/title', oldValue: 'A', value: 'B' }, { op: 'remove', path: '/tags/0', oldValue: 'x' }]
 */
export function jsonChanges(a: unknown, b: unknown, path = ''): JsonChange[] {
  if (jsonEqual(a, b)) return [];
  if (isObject(a) && isObject(b)) {
    const out: JsonChange[] = [];
    for (const k of Object.keys(a)) {
      if (!Object.hasOwn(b, k)) out.push({ op: 'remove', path: pointer(path, k), oldValue: a[k] });
      else out.push(...jsonChanges(a[k], b[k], pointer(path, k)));
    }
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.push({ op: 'add', path: pointer(path, k), value: b[k] });
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: JsonChange[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= b.length) out.push({ op: 'remove', path: pointer(path, i), oldValue: a[i] });
      else if (i >= a.length) out.push({ op: 'add', path: pointer(path, i), value: b[i] });
      else out.push(...jsonChanges(a[i], b[i], pointer(path, i)));
    }
    return out;
  }
  return [{ op: 'replace', path, oldValue: a, value: b }];
}
