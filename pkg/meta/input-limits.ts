/**
 * What a request may carry, and the one check every decoded input goes through (request bodies, query parameters,
 * the path, applied YAML, and every object the registry writes). PostgreSQL stores no NUL character in text or
 * jsonb and no lone UTF-16 surrogate; recursive walks of an object (managed fields, merge patches, deep equality,
 * JSON.stringify) must never exhaust the stack; `__proto__` is a key JavaScript objects do not keep as data; and the
 * search index holds titles and tags.
 */

/** Objects and arrays nested in one another, the outermost counting 1: `{"a":[1]}` is 2 deep. */
export const MAX_DEPTH = 100;
/** Folder, dashboard and playlist titles, in characters (UTF-16 code units). */
export const MAX_TITLE_LENGTH = 5000;
/** A dashboard's tags: how many, and how long each. */
export const MAX_TAGS = 1000;
export const MAX_TAG_LENGTH = 200;
/** Logins, emails, team, organization and service-account names (the anchor's column width). */
export const MAX_NAME_LENGTH = 190;

/** One problem of an input: where (`spec.panels[0].title`, '' for the value itself) and what. */
export interface InputProblem {
  path: string;
  message: string;
}

const BAD_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a text cannot be stored, or undefined.
 *
 * @example textProblem('a\u0000b') // 'contains a NUL character (U+0000)'
 */
export function textProblem(s: string): string | undefined {
  const m = BAD_CHARACTER.exec(s);
  if (!m) return undefined;
  if (m[0] === '\u0000') return 'contains a NUL character (U+0000)';
  return `contains a lone surrogate (\\u${m[0].charCodeAt(0).toString(16)}), which is not Unicode text`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
/** Paths in messages stop growing here: a path 10,000 levels deep says nothing more than its start. */
const MAX_SHOWN_PATH = 120;

/** A value being walked: its path is made only when a problem is found there (from its parent and key). */
interface Frame {
  value: object;
  depth: number;
  parent?: Frame;
  /** Its key in its parent; the walk's start has none, its path is the one given. */
  key?: string | number;
}

/** `path` extended by an object key or an array index, as messages show it. */
function child(path: string, key: string | number): string {
  if (path.length > MAX_SHOWN_PATH) return path.endsWith('…') ? path : `${path}…`;
  if (typeof key === 'number') return `${path}[${key}]`;
  if (IDENTIFIER.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

function scalarProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return textProblem(value);
    case 'number':
      return Number.isFinite(value) ? undefined : 'is a number out of range';
    case 'boolean':
      return undefined;
    default:
      return value === null ? undefined : 'is not a JSON value';
  }
}

/** An object literal's kind: its prototype is Object.prototype (of any realm: structuredClone's are another's) or null. */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * The first thing in a decoded JSON value that cannot be stored, or undefined: a string (or key) with NUL or a lone
 * surrogate, a non-finite number, a `__proto__` key, something JSON has no form for, or nesting deeper than
 * `maxDepth`. The walk is iterative, so it refuses a value nested far deeper than the stack without overflowing it.
 *
 * @param opts.path where the value sits, for messages (`spec`); `opts.depth` how deep it already is (1: at the top)
 * @example
 *   jsonProblem({ spec: { title: 'a\u0000' } }) // { path: 'spec.title', message: 'contains a NUL character (U+0000)' }
 *   jsonProblem(JSON.parse('[[[1]]]'), { maxDepth: 2 }) // { path: '[0]', message: 'is nested more than 2 levels deep' }
 */
export function jsonProblem(value: unknown, opts: { maxDepth?: number; path?: string; depth?: number } = {}): InputProblem | undefined {
  const maxDepth = opts.maxDepth ?? MAX_DEPTH;
  const path = opts.path ?? '';
  if (typeof value !== 'object' || value === null) {
    const message = scalarProblem(value);
    return message ? { path, message } : undefined;
  }
  // Paths are made only for a problem: a request body is walked at every write, and nearly always has none.
  const pathOf = (frame: Frame): string => {
    const keys: (string | number)[] = [];
    for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) keys.push(f.key);
    return keys.reduceRight<string>((p, key) => child(p, key), path);
  };
  const stack: Frame[] = [{ value, depth: opts.depth ?? 1 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > maxDepth) return { path: pathOf(frame), message: `is nested more than ${maxDepth} levels deep` };
    const node = frame.value;
    const array = Array.isArray(node);
    if (!array && !isPlainObject(node)) return { path: pathOf(frame), message: 'is not a JSON value' };
    const keys: readonly (string | number)[] = array ? Array.from(node.keys()) : Object.keys(node);
    for (const key of keys) {
      if (typeof key === 'string') {
        const keyText = textProblem(key);
        if (keyText) return { path: pathOf(frame), message: `has a key that ${keyText}` };
        if (key === '__proto__') return { path: pathOf(frame), message: 'has the key "__proto__", which is not allowed' };
      }
      const v: unknown = (node as Record<string | number, unknown>)[key];
      if (typeof v === 'object' && v !== null) {
        stack.push({ value: v, depth: frame.depth + 1, parent: frame, key });
        continue;
      }
      const message = scalarProblem(v);
      if (message) return { path: child(pathOf(frame), key), message };
    }
  }
  return undefined;
}

/**
 * A problem as one sentence: `spec.title contains a NUL character (U+0000)`; `whole` names the value itself when
 * the problem is at its top.
 */
export function describeProblem(p: InputProblem, whole: string): string {
  return `${p.path || whole} ${p.message}`;
}
