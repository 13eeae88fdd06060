import { StatusError } from '../../errors';
import { FieldRequirement, matchesFields, parseFieldSelector } from './index';

const eq = (field: string, value: string): FieldRequirement => ({ field, operator: 'Equals', value });
const ne = (field: string, value: string): FieldRequirement => ({ field, operator: 'NotEquals', value });

function parseError(selector: string, supported?: readonly string[]): StatusError {
  try {
    parseFieldSelector(selector, supported);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(selector)} to be rejected`);
}

describe('parseFieldSelector', () => {
  it.each<[string, FieldRequirement[]]>([
    ['metadata.name=a', [eq('metadata.name', 'a')]],
    ['metadata.name==a', [eq('metadata.name', 'a')]],
    ['metadata.name!=a', [ne('metadata.name', 'a')]],
    ['metadata.name=', [eq('metadata.name', '')]],
    ['metadata.name=!a', [eq('metadata.name', '!a')]],
    ['metadata.name=a b', [eq('metadata.name', 'a b')]],
    // terms come back ordered by their text, as upstream sorts them
    ['metadata.namespace=default,metadata.name=x', [eq('metadata.name', 'x'), eq('metadata.namespace', 'default')]],
    ['metadata.name!=b,metadata.name!=a', [ne('metadata.name', 'a'), ne('metadata.name', 'b')]],
    // empty terms are skipped
    [',metadata.name=a,,', [eq('metadata.name', 'a')]],
    [',', []],
    // escaping of \ , and = in values
    ['metadata.name=a\\,b', [eq('metadata.name', 'a,b')]],
    ['metadata.name=a\\=b', [eq('metadata.name', 'a=b')]],
    ['metadata.name=a\\\\b', [eq('metadata.name', 'a\\b')]],
    ['metadata.name=a\\\\', [eq('metadata.name', 'a\\')]],
    ['metadata.name=\\,,metadata.namespace=\\=', [eq('metadata.name', ','), eq('metadata.namespace', '=')]],
  ])('%j', (selector, expected) => {
    expect(parseFieldSelector(selector)).toEqual(expected);
  });

  it('treats an absent or empty selector as matching everything', () => {
    expect(parseFieldSelector(undefined)).toEqual([]);
    expect(parseFieldSelector('')).toEqual([]);
  });

  it('accepts the fields a caller supports instead of the defaults', () => {
    expect(parseFieldSelector('spec.title=Home', ['spec.title'])).toEqual([eq('spec.title', 'Home')]);
    expect(parseError('metadata.name=a', ['spec.title']).message).toBe('field label not supported: metadata.name');
  });

  it.each<[string, string]>([
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['metadata.name=a,x', "invalid selector: 'metadata.name=a,x'; can't understand 'x'"],
    ['metadata.name~a', "invalid selector: 'metadata.name~a'; can't understand 'metadata.name~a'"],
    // the field side has no escapes, so `\=` there still splits the term
    ['a\\=b', 'field label not supported: a\\'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['metadata.name=a\\😀', 'invalid field selector: invalid escape sequence: \\😀'],
    // upstream prints the unescaped rune's code point (`%v` of a rune): 61 is `=`
    ['metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['metadata.name!==a', 'invalid field selector: unescaped character in value: 61'],
    ['spec.title=x', 'field label not supported: spec.title'],
    ['=x', 'field label not supported: '],
    ['metadata.name =x', 'field label not supported: metadata.name '],
    ['metadata.name=a,status.phase=b,spec.title=c', 'field label not supported: spec.title'],
    // every term is parsed before any field is checked
    ['spec.title=x,metadata.name', "invalid selector: 'spec.title=x,metadata.name'; can't understand 'metadata.name'"],
  ])('rejects %j', (selector, message) => {
    const err = parseError(selector);
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe(message);
  });
});

describe('matchesFields', () => {
  const fields = { 'metadata.name': 'home', 'metadata.namespace': 'default' };
  it.each<[string, Record<string, string>, boolean]>([
    ['', fields, true],
    ['metadata.name=home', fields, true],
    ['metadata.name==home', fields, true],
    ['metadata.name=other', fields, false],
    ['metadata.name!=other', fields, true],
    ['metadata.name!=home', fields, false],
    ['metadata.name=home,metadata.namespace=default', fields, true],
    ['metadata.name=home,metadata.namespace!=default', fields, false],
    // a field the object lacks reads as ''
    ['metadata.namespace=', { 'metadata.name': 'home' }, true],
    ['metadata.namespace!=default', { 'metadata.name': 'home' }, true],
    ['metadata.namespace=default', { 'metadata.name': 'home' }, false],
    ['metadata.name=a\\,b', { 'metadata.name': 'a,b' }, true],
  ])('%j', (selector, fs, expected) => {
    expect(matchesFields(parseFieldSelector(selector), fs)).toBe(expected);
  });

  it('never reads fields from Object.prototype', () => {
    expect(matchesFields([eq('toString', '')], {})).toBe(true);
    expect(matchesFields([ne('toString', '')], {})).toBe(false);
  });
});
