/**
 * RFC 6902 JSON patch, applied by fast-json-patch, with kube-apiserver's answers (handlers/patch.go): a body that is
 * not a list of operation objects is 400, more than 10000 operations 413, an operation that does not apply (a failed
 * `test` included) 422 Invalid "the server rejected our request due to an error in our request".
 */
import { applyPatch as applyOperations, type Operation } from 'fast-json-patch';
import { StatusError } from '../errors';
import type { DuplicateField } from './duplicate-fields';

/** kube's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

const OPERATION_FIELDS = new Set(['op', 'path', 'from', 'value']);
const OPERATIONS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

const PROTOTYPE_PATH = /(^|\/)(__proto__|constructor\/prototype)(\/|$)/;

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);

/**
 * Checks the shape of a JSON patch body. Returns kube's strict-decoding problems of the operations themselves
 * (`json patch unknown field "foo"`, `json patch duplicate field "path"`), given the raw text's duplicates.
 *
 * @example decodeJsonPatch([{ op: 'test', path: '/spec/title', value: 'a', x: 1 }]) // ['json patch unknown field "x"']
 */
export function decodeJsonPatch(patch: unknown, duplicates: readonly DuplicateField[] = []): { ops: Operation[]; problems: string[] } {
  if (!Array.isArray(patch)) {
    throw StatusError.badRequest(`error decoding patch: json: cannot unmarshal ${jsonType(patch)} into Go value of type []handlers.jsonPatchOp`);
  }
  const problems: string[] = [];
  for (const op of patch) {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw StatusError.badRequest(`error decoding patch: json: cannot unmarshal ${jsonType(op)} into Go value of type handlers.jsonPatchOp`);
    }
    for (const k of Object.keys(op)) if (!OPERATION_FIELDS.has(k)) problems.push(`json patch unknown field ${JSON.stringify(k)}`);
  }
  // Only the operations' own members: duplicates inside values are lost by kube's decoder too.
  for (const d of duplicates) if (d.depth === 2) problems.push(`json patch duplicate field ${JSON.stringify(d.name)}`);
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw StatusError.tooLarge(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  return { ops: patch as Operation[], problems };
}

/** Applies the operations to a copy of `current`; the original is never touched. */
export function applyJsonPatch(current: unknown, ops: readonly Operation[]): unknown {
  let doc = structuredClone(current);
  ops.forEach((op, index) => {
    const problem = operationProblem(op);
    if (problem) throw notApplicable(problem);
    try {
      doc = applyOperations(doc, [structuredClone(op)], true, true).newDocument;
    } catch (err) {
      throw notApplicable(explain(op, err, index));
    }
  });
  return doc;
}

function operationProblem(op: Operation): string | undefined {
  const o = op as unknown as Record<string, unknown>;
  if (!OPERATIONS.has(o.op as string)) return `Unexpected kind: ${String(o.op ?? '')}`;
  if (typeof o.path !== 'string') return `operation missing path`;
  if ((o.op === 'move' || o.op === 'copy') && typeof o.from !== 'string') return `${o.op} operation missing from`;
  if ((o.op === 'add' || o.op === 'replace' || o.op === 'test') && !Object.hasOwn(o, 'value')) return `${o.op} operation missing value`;
  // Keys no JSON body may hold (pkg/meta/input-limits.ts); fast-json-patch refuses them too, in its own words.
  const banned = [o.path, o.from].find((p) => typeof p === 'string' && PROTOTYPE_PATH.test(p));
  if (banned !== undefined) return `${o.op} operation does not apply: ${JSON.stringify(banned)}: the key "__proto__" (or constructor/prototype) is not allowed`;
  return undefined;
}

/** Why an operation did not apply, worded as evanphx/json-patch (kube's library) words it. */
function explain(op: Operation, err: unknown, index: number): string {
  const name = (err as { name?: string }).name;
  const from = (op as { from?: string }).from;
  switch (name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${op.path} failed: test failed`;
    case 'OPERATION_PATH_UNRESOLVABLE':
      return op.op === 'replace' ? `replace operation does not apply: doc is missing key: ${op.path}: missing value` : `${op.op} operation does not apply: doc is missing path: "${op.path}": missing value`;
    case 'OPERATION_PATH_CANNOT_ADD':
      return `add operation does not apply: doc is missing path: "${op.path}": missing value`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${op.op} operation does not apply: doc is missing from path: "${from}": missing value`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `${op.op} operation does not apply: index out of bounds: "${op.path}"`;
    default:
      return `operation ${index} (${op.op} ${op.path}) does not apply: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * kube answers with NewGenericServerResponse(422): the fixed message below; the library's explanation rides along
 * as a cause (kube dropped it from the Status, which leaves clients guessing).
 */
function notApplicable(why: string): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ message: why }] });
}
