/**
 * Field selectors as `k8s.io/apimachinery/pkg/fields` parses and matches them (`?fieldSelector=`): comma-separated
 * `field=value`, `field==value` or `field!=value`, where a value escapes `\`, `,` and `=` with a backslash.
 */
import { StatusError } from '../../errors';
import { compareCodePoints } from './label-selector';

export type FieldOperator = 'Equals' | 'NotEquals';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  value: string;
}

/** What kube-apiserver lets every kind select on (`DefaultMetaV1FieldSelectorConversion`). */
const DEFAULT_SUPPORTED_FIELDS: readonly string[] = ['metadata.name', 'metadata.namespace'];

// `==` is tried before `=` so that it does not leave a `=` at the head of the value.
const TERM_OPERATORS: ReadonlyArray<readonly [string, FieldOperator]> = [
  ['!=', 'NotEquals'],
  ['==', 'Equals'],
  ['=', 'Equals'],
];

/**
 * Parses a `fieldSelector` query parameter into requirements, ordered as upstream orders them (by their text).
 * Every term is parsed before any field is checked against `supportedFields`, so a malformed term is reported
 * ahead of an unsupported field, as kube-apiserver does.
 *
 * @throws StatusError 400: `invalid selector: '<s>'; can't understand '<term>'`, an escaping error, or
 *   `field label not supported: <field>`.
 * @example
 *   parseFieldSelector('metadata.name!=a\\,b');
 *   // [{ field: 'metadata.name', operator: 'NotEquals', value: 'a,b' }]
 */
export function parseFieldSelector(selector: string | undefined, supportedFields: readonly string[] = DEFAULT_SUPPORTED_FIELDS): FieldRequirement[] {
  if (!selector) return [];
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(selector).sort(compareCodePoints)) {
    if (term === '') continue;
    const split = splitTerm(term);
    if (!split) throw StatusError.badRequest(`invalid selector: '${selector}'; can't understand '${term}'`);
    requirements.push({ field: split.field, operator: split.operator, value: unescapeValue(split.rawValue) });
  }
  const unsupported = requirements.find((r) => !supportedFields.includes(r.field));
  if (unsupported) throw StatusError.badRequest(`field label not supported: ${unsupported.field}`);
  return requirements;
}

/**
 * Whether an object's selectable fields satisfy every requirement. A field the object lacks counts as `''`,
 * as `fields.Set.Get` does, so `metadata.namespace!=x` matches a cluster-scoped object.
 *
 * @example
 *   matchesFields(parseFieldSelector('metadata.name=a'), { 'metadata.name': 'a', 'metadata.namespace': 'default' }); // true
 */
export function matchesFields(reqs: readonly FieldRequirement[], fields: Record<string, string>): boolean {
  return reqs.every((r) => {
    const actual = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
    return r.operator === 'Equals' ? actual === r.value : actual !== r.value;
  });
}

// Splits on commas that are not escaped; the escapes stay in the terms for unescapeValue.
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// The field side has no escaping: the first operator found splits the term.
function splitTerm(term: string): { field: string; operator: FieldOperator; rawValue: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const [symbol, operator] of TERM_OPERATORS) {
      if (term.startsWith(symbol, i)) return { field: term.slice(0, i), operator, rawValue: term.slice(i + symbol.length) };
    }
  }
  return undefined;
}

function unescapeValue(raw: string): string {
  let value = '';
  let escaped = false;
  for (const c of raw) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') throw StatusError.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      value += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      // Upstream formats the rune with %v, which prints its code point: `=` is reported as 61.
      throw StatusError.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      value += c;
    }
  }
  if (escaped) throw StatusError.badRequest('invalid field selector: invalid escape sequence: \\');
  return value;
}
