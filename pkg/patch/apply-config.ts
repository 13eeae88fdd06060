/**
 * The body of an `application/apply-patch+yaml` request: YAML or JSON (a JSON text is YAML), decoded by the `yaml`
 * package. Duplicate keys are found on the YAML tree with their lines, as kube-apiserver reports them:
 * `line 10: key "title" already set in map`.
 */
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { StatusError } from '../errors';
import { describeProblem, type JsonObject, jsonProblem, MAX_DEPTH } from '../meta';

export interface ApplyConfig {
  config: JsonObject;
  /** `line N: key "x" already set in map`, in document order. */
  duplicates: string[];
}

/** Aliases expand; this caps how far (a "billion laughs" document is refused, not expanded). */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses an applied configuration. A body that is not a YAML/JSON mapping is 400 `error decoding YAML: ...`.
 *
 * @example parseApplyConfig('apiVersion: v1\nkind: X\nmetadata:\n  name: a\n  name: b\n')
 * // { config: { apiVersion: 'v1', kind: 'X', metadata: { name: 'b' } }, duplicates: ['line 5: key "name" already set in map'] }
 */
export function parseApplyConfig(body: unknown): ApplyConfig {
  if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) {
    // Already decoded (a JSON body parser ran first): no raw text to look for duplicates in.
    if (Array.isArray(body)) throw decodeError('cannot unmarshal array into Go value of type map[string]interface {}');
    return { config: body as JsonObject, duplicates: [] };
  }
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
  const lines = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const err = doc.errors[0];
    const line = lines.linePos(err.pos[0]).line;
    // The parser is recursive: it gives up (and says so) somewhere past a thousand levels.
    if (/Maximum call stack size exceeded/.test(err.message)) throw decodeError(`yaml: line ${line}: the document is nested more than ${MAX_DEPTH} levels deep`);
    throw decodeError(`yaml: line ${line}: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const found: { line: number; col: number; text: string }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) throw decodeError('yaml: map keys must be scalars');
        const key = String(pair.key.value);
        if (seen.has(key)) {
          const pos = lines.linePos(pair.key.range?.[0] ?? 0);
          found.push({ ...pos, text: `line ${pos.line}: key ${JSON.stringify(key)} already set in map` });
        }
        seen.add(key);
      }
    },
  });
  const value = toJS(doc);
  if (!isMap(doc.contents) && doc.contents !== null) {
    throw decodeError(`cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type map[string]interface {}`);
  }
  // What any JSON body is held to (pkg/meta/input-limits.ts): YAML escapes can write NUL ("\0") and lone surrogates.
  const problem = jsonProblem(value);
  if (problem) throw decodeError(describeProblem(problem, 'the document'));
  found.sort((a, b) => a.line - b.line || a.col - b.col);
  return { config: value as JsonObject, duplicates: found.map((f) => f.text) };
}

/** The document as a value, its aliases expanded no further than MAX_ALIAS_COUNT allows. */
function toJS(doc: ReturnType<typeof parseDocument>): unknown {
  if (doc.contents === null) return {};
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // The yaml package's refusal of a "billion laughs" document: a ReferenceError, a client's error.
    if (err instanceof ReferenceError && /alias/i.test(err.message)) throw decodeError(`yaml: the document expands more than ${MAX_ALIAS_COUNT} aliases`);
    throw err;
  }
}

function decodeError(why: string): StatusError {
  return StatusError.badRequest(`error decoding YAML: ${why}`);
}
