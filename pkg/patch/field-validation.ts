/**
 * `fieldValidation=Strict|Warn|Ignore` on create, update and patch, as kube-apiserver decodes request bodies:
 * unknown fields (see unknown-fields.ts) and duplicate JSON members are errors under Strict, `Warning: 299` headers
 * under Warn (the server's default; kubectl sends Strict), and nothing under Ignore. Unknown fields of a kind that
 * does not preserve them are dropped in all three cases, so they are never stored.
 */
import { type StatusCause, StatusError } from '../errors';
import type { KindRegistration } from '../meta';
import { duplicateFields } from './duplicate-fields';
import { unknownFields } from './unknown-fields';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Which options object a bad value is reported against, as kube names them. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const DIRECTIVES: readonly string[] = ['Strict', 'Warn', 'Ignore'];

/**
 * The directive a request asks for; absent or empty is Warn. Anything else is 422 like kube's
 * `ValidateFieldValidation`: `fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"`.
 */
export function parseFieldValidation(value: unknown, options: OptionsKind): FieldValidation {
  const cause = fieldValidationCause(value);
  if (cause) throw StatusError.invalid({ group: 'meta.k8s.io', kind: options }, '', [cause]);
  return value ? (value as FieldValidation) : 'Warn';
}

/** The 422 cause of a bad fieldValidation value, to report with the other options' problems. */
export function fieldValidationCause(value: unknown): StatusCause | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw StatusError.badRequest('query parameter fieldValidation must be given once');
  if (DIRECTIVES.includes(value)) return undefined;
  return { field: 'fieldValidation', reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: supported values: "", "Ignore", "Strict", "Warn"` };
}

/**
 * What a directive makes of strict-decoding problems: under Strict the error `fail` builds from kube's
 * `strict decoding error: a, b` message, under Warn the warnings to send, under Ignore nothing.
 */
export function strictOutcome(directive: FieldValidation, problems: readonly string[], fail: (message: string) => StatusError = StatusError.badRequest): string[] {
  if (directive === 'Ignore' || problems.length === 0) return [];
  if (directive === 'Strict') throw fail(`strict decoding error: ${problems.join(', ')}`);
  return [...problems];
}

/** `duplicate field "x"` for each duplicate member anywhere in a raw JSON body. */
export function duplicateProblems(raw: string | undefined): string[] {
  return raw ? duplicateFields(raw).map((d) => `duplicate field ${JSON.stringify(d.name)}`) : [];
}

/**
 * A create or update body, strictly decoded: duplicates in `raw` (the body's text, when the server kept it) first,
 * then unknown fields, as kube lists them. Returns the body to write (unknown fields dropped) and the warnings.
 *
 * @example decodeBody(playlistKind, { spec: { title: 'a', colour: 1 } }, { fieldValidation: 'Warn' })
 * // { body: { spec: { title: 'a' } }, warnings: ['unknown field "spec.colour"'] }
 */
export function decodeBody(kind: KindRegistration, body: unknown, opts: { fieldValidation: FieldValidation; raw?: string }): { body: unknown; warnings: string[] } {
  const unknown = unknownFields(kind, body);
  const problems = opts.fieldValidation === 'Ignore' ? [] : [...duplicateProblems(opts.raw), ...unknown.paths.map((p) => `unknown field ${JSON.stringify(p)}`)];
  return { body: unknown.pruned, warnings: strictOutcome(opts.fieldValidation, problems) };
}

/**
 * The value of one `Warning` header, as kube-apiserver writes it (`299 - "text"`, `"` and `\` escaped). The text goes
 * out as UTF-8 bytes, as Go sends it; control characters, which no header may carry, become spaces.
 *
 * @example warningHeader('unknown field "spec.foo"') // '299 - "unknown field \\"spec.foo\\""'
 */
export function warningHeader(text: string): string {
  const quoted = text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  return Buffer.from(`299 - "${quoted}"`, 'utf8').toString('latin1');
}
