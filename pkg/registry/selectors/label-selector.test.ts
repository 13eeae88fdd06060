import { StatusError } from '../../errors';
import { formatLabelSelector, LabelRequirement, matchesLabels, parseLabelSelector } from './index';
import { labelKeyErrors, labelValueErrors } from './label-selector';

// Upstream's rule texts, spelled out once (double spaces included) so every case below asserts the whole message.
const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NOT_INTEGER = "for 'Gt', 'Lt' operators, the value must be an integer";
const OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const req = (key: string, operator: LabelRequirement['operator'], ...values: string[]): LabelRequirement => ({ key, operator, values });

function parseError(selector: string): StatusError {
  try {
    parseLabelSelector(selector);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(selector)} to be rejected`);
}

describe('parseLabelSelector', () => {
  it.each<[string, LabelRequirement[], string]>([
    // selector, requirements, canonical form
    ['a=b', [req('a', 'Equals', 'b')], 'a=b'],
    ['a==b', [req('a', 'Equals', 'b')], 'a=b'],
    ['a!=b', [req('a', 'NotEquals', 'b')], 'a!=b'],
    ['a', [req('a', 'Exists')], 'a'],
    ['!a', [req('a', 'DoesNotExist')], '!a'],
    ['a>1', [req('a', 'GreaterThan', '1')], 'a>1'],
    ['a<10', [req('a', 'LessThan', '10')], 'a<10'],
    ['a in (y,x,y)', [req('a', 'In', 'x', 'y')], 'a in (x,y)'],
    ['a notin (x)', [req('a', 'NotIn', 'x')], 'a notin (x)'],
    // empty values
    ['a=', [req('a', 'Equals', '')], 'a='],
    ['a!=', [req('a', 'NotEquals', '')], 'a!='],
    ['a=,b', [req('a', 'Equals', ''), req('b', 'Exists')], 'a=,b'],
    ['a in ()', [req('a', 'In', '')], 'a in ()'],
    ['a in (,)', [req('a', 'In', '')], 'a in ()'],
    ['a in (,x)', [req('a', 'In', '', 'x')], 'a in (,x)'],
    ['a in (x,)', [req('a', 'In', '', 'x')], 'a in (,x)'],
    ['x in (foo,,baz),y,z notin ()', [req('x', 'In', '', 'baz', 'foo'), req('y', 'Exists'), req('z', 'NotIn', '')], 'x in (,baz,foo),y,z notin ()'],
    // `in` and `notin` are words wherever an operator is not expected
    ['in in (in)', [req('in', 'In', 'in')], 'in in (in)'],
    ['notin=notin', [req('notin', 'Equals', 'notin')], 'notin=notin'],
    ['a in (in,notin)', [req('a', 'In', 'in', 'notin')], 'a in (in,notin)'],
    // whitespace is allowed around every token, and sorting is by key
    ['  ', [], ''],
    [' c in ( y , x ) ,\t!d ,\na = b\r', [req('a', 'Equals', 'b'), req('c', 'In', 'x', 'y'), req('d', 'DoesNotExist')], 'a=b,c in (x,y),!d'],
    ['b=1,a=2', [req('a', 'Equals', '2'), req('b', 'Equals', '1')], 'a=2,b=1'],
    // the same key twice keeps both requirements, in their order
    ['a=b,a!=c', [req('a', 'Equals', 'b'), req('a', 'NotEquals', 'c')], 'a=b,a!=c'],
    // qualified keys and the full value alphabet
    ['example.com/app-name=My_Value.1', [req('example.com/app-name', 'Equals', 'My_Value.1')], 'example.com/app-name=My_Value.1'],
    [`${'k'.repeat(63)}=${'v'.repeat(63)}`, [req('k'.repeat(63), 'Equals', 'v'.repeat(63))], `${'k'.repeat(63)}=${'v'.repeat(63)}`],
    ['a>0', [req('a', 'GreaterThan', '0')], 'a>0'],
    ['a>9223372036854775807', [req('a', 'GreaterThan', '9223372036854775807')], 'a>9223372036854775807'],
  ])('%j', (selector, expected, canonical) => {
    const parsed = parseLabelSelector(selector);
    expect(parsed).toEqual(expected);
    expect(formatLabelSelector(parsed)).toBe(canonical);
    expect(parseLabelSelector(canonical)).toEqual(expected);
  });

  it('treats an absent or empty selector as matching everything', () => {
    expect(parseLabelSelector(undefined)).toEqual([]);
    expect(parseLabelSelector('')).toEqual([]);
  });

  it.each<[string, string]>([
    // structure
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b)', "found ')', expected: ',' or 'end of string'"],
    ['a in (x)y', "found 'y', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a=b!', "found '!', expected: ',' or 'end of string'"],
    // inside one requirement
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['a b', `unable to parse requirement: found 'b', expected: ${OPERATORS}`],
    ['a!', `unable to parse requirement: found '!', expected: ${OPERATORS}`],
    ['a (x)', `unable to parse requirement: found '(', expected: ${OPERATORS}`],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['a===b', "unable to parse requirement: found '=', expected: identifier"],
    ['a=!b', "unable to parse requirement: found '!', expected: identifier"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in x', "unable to parse requirement: found 'x' expected: '('"],
    ['a in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (x', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (x y)', "unable to parse requirement: found 'y', expected: ',' or ')'"],
    ['a in (x,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['a in (x,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    // keys
    ['-a', `unable to parse requirement: <nil>: Invalid value: "-a": name part ${NAME_RULE}`],
    ['!a_', `unable to parse requirement: <nil>: Invalid value: "a_": name part ${NAME_RULE}`],
    ['a|b=c', `unable to parse requirement: <nil>: Invalid value: "a|b": name part ${NAME_RULE}`],
    ['a\x01b', `unable to parse requirement: <nil>: Invalid value: "a\\x01b": name part ${NAME_RULE}`],
    ['"a"', `unable to parse requirement: <nil>: Invalid value: "\\"a\\"": name part ${NAME_RULE}`],
    ['k'.repeat(64), `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes`],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${NAME_RULE}`],
    ['Example.com/a', `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part ${SUBDOMAIN_RULE}`],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    // values
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_RULE}`],
    ['a=é', `unable to parse requirement: values[0][a]: Invalid value: "é": ${VALUE_RULE}`],
    ['a=b\\', `unable to parse requirement: values[0][a]: Invalid value: "b\\\\": ${VALUE_RULE}`],
    ['a in (ok,-x)', `unable to parse requirement: values[0][a]: Invalid value: "-x": ${VALUE_RULE}`],
    ['a in (-y,ok,-x)', `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE_RULE}, values[1][a]: Invalid value: "-y": ${VALUE_RULE}]`],
    [`a=${'v'.repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`],
    // Gt and Lt need an int64 operand that is also a valid label value
    ['a>x', `unable to parse requirement: values[0]: Invalid value: "x": ${NOT_INTEGER}`],
    ['a<', `unable to parse requirement: values[0]: Invalid value: "": ${NOT_INTEGER}`],
    ['a>1.5', `unable to parse requirement: values[0]: Invalid value: "1.5": ${NOT_INTEGER}`],
    ['a>9223372036854775808', `unable to parse requirement: values[0]: Invalid value: "9223372036854775808": ${NOT_INTEGER}`],
    ['a<-1', `unable to parse requirement: values[0][a]: Invalid value: "-1": ${VALUE_RULE}`],
    ['a>x-', `unable to parse requirement: [values[0]: Invalid value: "x-": ${NOT_INTEGER}, values[0][a]: Invalid value: "x-": ${VALUE_RULE}]`],
  ])('rejects %j', (selector, message) => {
    const err = parseError(selector);
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe(message);
  });

  it('reads a NUL between tokens as the end of the selector, as upstream (which lexes bytes, 0 meaning end) does', () => {
    expect(parseLabelSelector('a=b \0junk')).toEqual([req('a', 'Equals', 'b')]);
  });
});

describe('matchesLabels', () => {
  const labels = { app: 'web', tier: 'frontend', replicas: '3', empty: '', constructor: 'x' };
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ['', labels, true],
    ['', undefined, true],
    ['app=web', labels, true],
    ['app==web', labels, true],
    ['app=db', labels, false],
    ['missing=web', labels, false],
    ['empty=', labels, true],
    ['missing=', labels, false],
    // != and notin also match when the key is absent
    ['app!=db', labels, true],
    ['app!=web', labels, false],
    ['missing!=web', labels, true],
    ['missing!=web', undefined, true],
    ['app notin (db,cache)', labels, true],
    ['app notin (web,db)', labels, false],
    ['missing notin (web)', labels, true],
    // in needs the key present with a value in the set
    ['app in (web,db)', labels, true],
    ['app in (db)', labels, false],
    ['missing in (web)', labels, false],
    ['missing in ()', labels, false],
    ['empty in ()', labels, true],
    ['app', labels, true],
    ['missing', labels, false],
    ['!missing', labels, true],
    ['!app', labels, false],
    ['!app', undefined, true],
    // Gt and Lt compare integers, and never match a label that is absent or not an integer
    ['replicas>2', labels, true],
    ['replicas>3', labels, false],
    ['replicas<4', labels, true],
    ['replicas<3', labels, false],
    ['app>1', labels, false],
    ['app<1', labels, false],
    ['empty<1', labels, false],
    ['missing<1', labels, false],
    ['n<0', { n: '-5' }, true],
    ['n>1', { n: '+5' }, true],
    ['n>1', { n: '5.0' }, false],
    ['n>1', { n: '0x10' }, false],
    ['n>9223372036854775806', { n: '9223372036854775807' }, true],
    ['n>1', { n: '9223372036854775808' }, false],
    // every requirement must hold
    ['app=web,tier=frontend', labels, true],
    ['app=web,tier=backend', labels, false],
    // only own keys count, never Object.prototype's
    ['toString', {}, false],
    ['constructor=x', labels, true],
    ['constructor', {}, false],
  ])('%j', (selector, ls, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), ls)).toBe(expected);
  });

  it('does not match Gt/Lt whose own operand is not an integer', () => {
    expect(matchesLabels([req('n', 'GreaterThan', 'x')], { n: '5' })).toBe(false);
    expect(matchesLabels([req('n', 'LessThan', '1', '2')], { n: '0' })).toBe(false);
  });
});

describe('formatLabelSelector', () => {
  it('prints hand-built requirements canonically: keys sorted, values sorted and deduplicated', () => {
    const reqs = [req('d', 'DoesNotExist'), req('c', 'In', 'y', 'x', 'x'), req('a', 'Equals', 'b'), req('e', 'NotIn', 'z'), req('f', 'LessThan', '2')];
    expect(formatLabelSelector(reqs)).toBe('a=b,c in (x,y),!d,e notin (z),f<2');
    expect(reqs[1].values).toEqual(['y', 'x', 'x']);
  });

  it('prints nothing for no requirements', () => {
    expect(formatLabelSelector([])).toBe('');
  });
});

describe('labelKeyErrors and labelValueErrors', () => {
  it('return no messages for valid keys and values, and upstream\'s messages otherwise', () => {
    expect(labelKeyErrors('example.com/app')).toEqual([]);
    expect(labelKeyErrors('a/')).toEqual(['name part must be non-empty', `name part ${NAME_RULE}`]);
    expect(labelValueErrors('')).toEqual([]);
    expect(labelValueErrors(`-${'v'.repeat(63)}`)).toEqual(['must be no more than 63 bytes', VALUE_RULE]);
  });
});
