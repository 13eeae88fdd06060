/**
 * Label selectors as `k8s.io/apimachinery/pkg/labels` parses, matches and prints them (`?labelSelector=`).
 *
 * The lexer and the recursive-descent parser follow upstream's `selector.go` step by step, because clients
 * (kubectl, client-go, Grafana) rely on its corner cases (`x in (,a)`, `!a`, `in` as a value) and on the exact
 * wording of its errors. Keys and values are validated as `util/validation` does.
 */
import { StatusError } from '../../errors';

export type LabelOperator = 'Equals' | 'NotEquals' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'GreaterThan' | 'LessThan';

/** One ANDed term. `values` is sorted and deduplicated: `[]` for Exists/DoesNotExist, one value for Equals, NotEquals, GreaterThan, LessThan. */
export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

type Token =
  | 'Error'
  | 'EndOfString'
  | 'ClosedPar'
  | 'Comma'
  | 'DoesNotExist'
  | 'DoubleEquals'
  | 'Equals'
  | 'GreaterThan'
  | 'Identifier'
  | 'In'
  | 'LessThan'
  | 'NotEquals'
  | 'NotIn'
  | 'OpenPar';

interface Item {
  tok: Token;
  lit: string;
}

const LITERALS: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', 'ClosedPar'],
  [',', 'Comma'],
  ['!', 'DoesNotExist'],
  ['==', 'DoubleEquals'],
  ['=', 'Equals'],
  ['>', 'GreaterThan'],
  ['in', 'In'],
  ['<', 'LessThan'],
  ['!=', 'NotEquals'],
  ['notin', 'NotIn'],
  ['(', 'OpenPar'],
]);
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
// Upstream reads bytes and uses 0 for "end of input", so a NUL in the selector ends a token or the selector; we keep that.
const END = '\0';
// Upstream's message lists `selection.Operator` spellings, where Gt and Lt are `gt` and `lt`.
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

function lex(s: string): Item[] {
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++] : END);
  const scanIdentifierOrKeyword = (): Item => {
    let lit = '';
    for (let ch = read(); ch !== END; ch = read()) {
      if (SPECIAL.has(ch) || WHITESPACE.has(ch)) {
        pos--;
        break;
      }
      lit += ch;
    }
    return { tok: LITERALS.get(lit) ?? 'Identifier', lit };
  };
  // Longest run of symbols that is still an operator: `!=` is one token, `!(` is two.
  const scanSpecialSymbol = (): Item => {
    let buffer = '';
    let last: Item | undefined;
    for (let ch = read(); ch !== END; ch = read()) {
      if (!SPECIAL.has(ch)) {
        pos--;
        break;
      }
      buffer += ch;
      const tok = LITERALS.get(buffer);
      if (tok) last = { tok, lit: buffer };
      else if (last) {
        pos--;
        break;
      }
    }
    // Unreachable while every single symbol is an operator; kept so the parser reports it as upstream would.
    return last ?? { tok: 'Error', lit: `error expected: keyword found '${buffer}'` };
  };

  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (WHITESPACE.has(ch)) ch = read();
    if (ch === END) {
      items.push({ tok: 'EndOfString', lit: '' });
      return items;
    }
    pos--;
    items.push(SPECIAL.has(ch) ? scanSpecialSymbol() : scanIdentifierOrKeyword());
  }
}

/** A syntax problem inside one requirement; `parseLabelSelector` prefixes it with `unable to parse requirement: `. */
class RequirementError extends Error {}

type Context = 'KeyAndOperator' | 'Values';

class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  // `in` and `notin` are operators only where an operator is expected; elsewhere they are plain words (`in in (in)`).
  lookahead(context: Context): Item {
    const item = this.items[Math.min(this.position, this.items.length - 1)];
    return context === 'Values' && (item.tok === 'In' || item.tok === 'NotIn') ? { tok: 'Identifier', lit: item.lit } : item;
  }

  consume(context: Context): Item {
    const item = this.lookahead(context);
    this.position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead('Values');
      if (tok === 'EndOfString') return requirements;
      if (tok !== 'Identifier' && tok !== 'DoesNotExist') throw badRequest(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(this.parseRequirement());
      } catch (err) {
        if (err instanceof RequirementError) throw badRequest(`unable to parse requirement: ${err.message}`);
        throw err;
      }
      const after = this.consume('Values');
      if (after.tok === 'EndOfString') return requirements;
      if (after.tok !== 'Comma') throw badRequest(`found '${after.lit}', expected: ',' or 'end of string'`);
      const next = this.lookahead('Values');
      if (next.tok !== 'Identifier' && next.tok !== 'DoesNotExist') throw badRequest(`found '${next.lit}', expected: identifier after ','`);
    }
  }

  private parseRequirement(): LabelRequirement {
    let { tok, lit: key } = this.consume('Values');
    const negated = tok === 'DoesNotExist';
    if (negated) ({ tok, lit: key } = this.consume('Values'));
    if (tok !== 'Identifier') throw new RequirementError(`found '${key}', expected: identifier`);
    const keyErrors = labelKeyErrors(key);
    if (keyErrors.length) throw new RequirementError(invalidValue('<nil>', key, keyErrors.join('; ')));
    // `!key` ends the requirement whatever follows, as upstream: `!a=b` then fails on the `=`.
    if (negated) return { key, operator: 'DoesNotExist', values: [] };
    const next = this.lookahead('Values').tok;
    if (next === 'EndOfString' || next === 'Comma') return { key, operator: 'Exists', values: [] };

    const op = this.consume('KeyAndOperator');
    const operator = OPERATOR_TOKENS.get(op.tok);
    if (!operator) throw new RequirementError(`found '${op.lit}', expected: ${BINARY_OPERATORS}`);
    const values = operator === 'In' || operator === 'NotIn' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, sortedUnique(values));
  }

  private parseValues(): string[] {
    const open = this.consume('Values');
    // Upstream has no colon in this one message.
    if (open.tok !== 'OpenPar') throw new RequirementError(`found '${open.lit}' expected: '('`);
    const first = this.lookahead('Values');
    if (first.tok === 'ClosedPar') {
      this.consume('Values');
      return ['']; // `()` is the set holding the empty value, so In/NotIn sets are never empty
    }
    if (first.tok !== 'Identifier' && first.tok !== 'Comma') throw new RequirementError(`found '${first.lit}', expected: ',', ')' or identifier`);
    const values = this.parseIdentifiersList();
    this.consume('Values'); // the `)` parseIdentifiersList stopped on
    return values;
  }

  // Missing identifiers between commas are empty values: `(,a)`, `(a,,b)` and `(a,)` all hold ''.
  private parseIdentifiersList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, lit } = this.consume('Values');
      if (tok === 'Identifier') {
        values.push(lit);
        const next = this.lookahead('Values');
        if (next.tok === 'ClosedPar') return values;
        if (next.tok !== 'Comma') throw new RequirementError(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === 'Comma') {
        if (values.length === 0) values.push('');
        const next = this.lookahead('Values').tok;
        if (next === 'ClosedPar') return [...values, ''];
        if (next === 'Comma') {
          this.consume('Values');
          values.push('');
        }
      } else {
        throw new RequirementError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead('Values').tok;
    if (next === 'EndOfString' || next === 'Comma') return [''];
    const { tok, lit } = this.consume('Values');
    if (tok !== 'Identifier') throw new RequirementError(`found '${lit}', expected: identifier`);
    return [lit];
  }
}

// `==` is the same requirement as `=`; our type has no DoubleEquals, so it prints back as `=`.
const OPERATOR_TOKENS: ReadonlyMap<Token, LabelOperator> = new Map<Token, LabelOperator>([
  ['In', 'In'],
  ['NotIn', 'NotIn'],
  ['Equals', 'Equals'],
  ['DoubleEquals', 'Equals'],
  ['NotEquals', 'NotEquals'],
  ['GreaterThan', 'GreaterThan'],
  ['LessThan', 'LessThan'],
]);

/** Upstream's `NewRequirement` checks that the parser can fail: integer operands and value syntax, reported together. */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errors: string[] = [];
  values.forEach((v, i) => {
    if ((operator === 'GreaterThan' || operator === 'LessThan') && parseInt64(v) === undefined) {
      errors.push(invalidValue(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    }
  });
  values.forEach((v, i) => {
    const valueErrors = labelValueErrors(v);
    if (valueErrors.length) errors.push(invalidValue(`values[${i}][${key}]`, v, valueErrors.join('; ')));
  });
  const distinct = [...new Set(errors)];
  if (distinct.length === 1) throw new RequirementError(distinct[0]);
  if (distinct.length > 1) throw new RequirementError(`[${distinct.join(', ')}]`);
  return { key, operator, values };
}

/**
 * Parses a `labelSelector` query parameter. The result is sorted by key; an empty selector matches everything.
 *
 * @throws StatusError 400 with kube-apiserver's message, e.g. `unable to parse requirement: found '', expected: identifier`.
 * @example
 *   parseLabelSelector('env in (prod,dev),!legacy');
 *   // [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }, { key: 'legacy', operator: 'DoesNotExist', values: [] }]
 */
export function parseLabelSelector(selector: string | undefined): LabelRequirement[] {
  if (!selector) return [];
  return stableSortByKey(new Parser(lex(selector)).parse());
}

/**
 * Whether labels satisfy every requirement. As upstream, `!=` and `notin` also match objects without the key,
 * and `>`/`<` never match a label that is not an integer.
 *
 * @example
 *   matchesLabels(parseLabelSelector('tier!=db'), { app: 'web' }); // true: no tier at all
 */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  const ls = labels ?? {};
  return reqs.every((r) => matchesRequirement(r, Object.hasOwn(ls, r.key) ? ls[r.key] : undefined));
}

function matchesRequirement(r: LabelRequirement, value: string | undefined): boolean {
  switch (r.operator) {
    case 'Equals':
    case 'In':
      return value !== undefined && r.values.includes(value);
    case 'NotEquals':
    case 'NotIn':
      return value === undefined || !r.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'GreaterThan':
    case 'LessThan': {
      const actual = value === undefined ? undefined : parseInt64(value);
      const bound = r.values.length === 1 ? parseInt64(r.values[0]) : undefined;
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'GreaterThan' ? actual > bound : actual < bound;
    }
  }
}

/**
 * Prints requirements in the canonical form upstream's `Selector.String()` gives: sorted by key, values sorted.
 * `parseLabelSelector(formatLabelSelector(reqs))` gives back `reqs`.
 *
 * @example
 *   formatLabelSelector(parseLabelSelector('!d, c in (y,x), a==b')); // "a=b,c in (x,y),!d"
 */
export function formatLabelSelector(reqs: readonly LabelRequirement[]): string {
  return stableSortByKey(reqs)
    .map(({ key, operator, values }) => {
      const v = sortedUnique(values).join(',');
      switch (operator) {
        case 'Exists':
          return key;
        case 'DoesNotExist':
          return `!${key}`;
        case 'Equals':
          return `${key}=${v}`;
        case 'NotEquals':
          return `${key}!=${v}`;
        case 'In':
          return `${key} in (${v})`;
        case 'NotIn':
          return `${key} notin (${v})`;
        case 'GreaterThan':
          return `${key}>${v}`;
        case 'LessThan':
          return `${key}<${v}`;
      }
    })
    .join(',');
}

function badRequest(message: string): StatusError {
  return StatusError.badRequest(message);
}

/**
 * Go's string order (UTF-8 bytes, i.e. code points); JS `<` compares UTF-16 units and differs above U+FFFF.
 * Shared with field-selector.ts; not part of the package's exports.
 *
 * @example
 *   ['b', 'a'].sort(compareCodePoints); // ['a', 'b']
 */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) ?? 0) - (y[i].codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

// Upstream sorts with sort.Sort, which is stable for the short selectors seen in practice; Array#sort always is.
function stableSortByKey(reqs: readonly LabelRequirement[]): LabelRequirement[] {
  return [...reqs].sort((a, b) => compareCodePoints(a.key, b.key));
}

// --- validation, worded as k8s.io/apimachinery/pkg/api/validate/content words it ---

const NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const NAME_RE = new RegExp(`^${NAME_FMT}$`);
const NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const VALUE_FMT = `(${NAME_FMT})?`;
const VALUE_RE = new RegExp(`^${VALUE_FMT}$`);
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_FMT = `${DNS_LABEL_FMT}(\\.${DNS_LABEL_FMT})*`;
const SUBDOMAIN_RE = new RegExp(`^${SUBDOMAIN_FMT}$`);
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

// Lengths are UTF-8 bytes, as Go's len().
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
const maxLenError = (n: number): string => `must be no more than ${n} bytes`;
// Upstream's double spaces (`'MyName',  or`) are kept: clients compare these messages.
const regexError = (msg: string, fmt: string, ...examples: string[]): string =>
  `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;

/**
 * Upstream's `IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters.
 * Returns its messages, none when the key is valid. Exported for metadata validation, which uses the same rule.
 *
 * @example
 *   labelKeyErrors('/a'); // ['prefix part must be non-empty']
 */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexError(NAME_MSG, NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errors: string[] = [];
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') errors.push('prefix part must be non-empty');
    else {
      if (byteLength(prefix) > 253) errors.push(`prefix part ${maxLenError(253)}`);
      if (!SUBDOMAIN_RE.test(prefix)) errors.push(`prefix part ${regexError(SUBDOMAIN_MSG, SUBDOMAIN_FMT, 'example.com')}`);
    }
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (byteLength(name) > 63) errors.push(`name part ${maxLenError(63)}`);
  if (!NAME_RE.test(name)) errors.push(`name part ${regexError(NAME_MSG, NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

/**
 * Upstream's `IsValidLabelValue`: empty, or at most 63 characters of the name alphabet. Returns its messages.
 *
 * @example
 *   labelValueErrors('my_value'); // []
 */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push(maxLenError(63));
  if (!VALUE_RE.test(value)) errors.push(regexError(VALUE_MSG, VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errors;
}

/** `field.Invalid(path, value, detail).Error()`; a nil path prints as `<nil>`. */
function invalidValue(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${goQuote(value)}: ${detail}`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.ParseInt(s, 10, 64)`: an optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

const GO_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/** Go's `%q` (strconv.Quote): printable characters as they are, the rest escaped. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (GO_ESCAPES[ch]) out += GO_ESCAPES[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x80 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
