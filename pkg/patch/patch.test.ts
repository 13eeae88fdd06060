import { z } from 'zod';
import type { KindRegistration } from '../meta';
import { applyPatch, decodeBody, duplicateFields, JSON_PATCH, parseApplyConfig, unknownFields, warningHeader } from '.';

const kind = {
  group: 'g', version: 'v1', kind: 'K', plural: 'ks', singular: 'k', deleteResponse: 'status',
  specSchema: z.looseObject({ title: z.string(), items: z.array(z.looseObject({ v: z.string() })).default([]), opts: z.record(z.string(), z.looseObject({ on: z.boolean() })).nullish() }),
} satisfies KindRegistration;

describe('duplicateFields', () => {
  it('finds repeated members per object, in order, with their depth', () => {
    expect(duplicateFields('{"a":1,"b":{"c":1,"c":2,"c":3},"a":3,"d":[{"e":1,"e":2}]}')).toEqual([
      { name: 'c', depth: 2 },
      { name: 'a', depth: 1 },
      { name: 'e', depth: 3 },
    ]);
  });

  it('reads escaped names and ignores strings that are values', () => {
    expect(duplicateFields('{"a\\"b":"a\\"b","a\\u0022b":1,"x":"{\\"y\\":1,\\"y\\":2}"}')).toEqual([{ name: 'a"b', depth: 1 }]);
  });

  it('tells a name written with an escape from the same name written plainly, and a lone member from a pair', () => {
    expect(duplicateFields('{"\\u0061":1,"a":2,"b":{"x":1},"c":[],"d":{}}')).toEqual([{ name: 'a', depth: 1 }]);
    expect(duplicateFields('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toEqual([]);
    expect(duplicateFields('{"a":1,"b":2,"a":3,"a":4,"b":5}')).toEqual([{ name: 'a', depth: 1 }, { name: 'b', depth: 1 }]);
  });
});

describe('unknownFields', () => {
  it('names undeclared members at every level and drops them', () => {
    const body = { extra: 1, metadata: { name: 'a', colour: 'red' }, spec: { title: 't', x: 1, items: [{ v: 'a', y: 2 }], opts: { k: { on: true, z: 3 } } } };
    expect(unknownFields(kind, body)).toEqual({
      paths: ['extra', 'metadata.colour', 'spec.items[0].y', 'spec.opts.k.z', 'spec.x'],
      pruned: { metadata: { name: 'a' }, spec: { title: 't', items: [{ v: 'a' }], opts: { k: { on: true } } } },
    });
  });

  it('leaves the spec of a kind that preserves unknown fields alone', () => {
    expect(unknownFields({ ...kind, preserveUnknownFields: true }, { spec: { x: 1 } })).toEqual({ paths: [], pruned: { spec: { x: 1 } } });
  });
});

describe('decodeBody', () => {
  it('reports per directive', () => {
    const raw = '{"spec":{"title":"a","title":"b","x":1}}';
    expect(decodeBody(kind, JSON.parse(raw), { fieldValidation: 'Warn', raw })).toEqual({ body: { spec: { title: 'b' } }, warnings: ['duplicate field "title"', 'unknown field "spec.x"'] });
    expect(decodeBody(kind, JSON.parse(raw), { fieldValidation: 'Ignore', raw }).warnings).toEqual([]);
    expect(() => decodeBody(kind, JSON.parse(raw), { fieldValidation: 'Strict', raw })).toThrow('strict decoding error: duplicate field "title", unknown field "spec.x"');
  });
});

describe('parseApplyConfig', () => {
  it('reads YAML and JSON, with the lines of duplicate keys', () => {
    expect(parseApplyConfig('a: 1\nb:\n  c: x\n  c: y\na: 2\n')).toEqual({ config: { a: 2, b: { c: 'y' } }, duplicates: ['line 4: key "c" already set in map', 'line 5: key "a" already set in map'] });
    expect(parseApplyConfig('{"a": {"b": [1, 2]}}').config).toEqual({ a: { b: [1, 2] } });
    expect(parseApplyConfig('').config).toEqual({});
  });

  it('refuses what is not a JSON object', () => {
    expect(() => parseApplyConfig('- 1')).toThrow('error decoding YAML');
    expect(() => parseApplyConfig('a: .inf')).toThrow('a is a number out of range');
    expect(() => parseApplyConfig('a: [1')).toThrow('error decoding YAML: yaml: line');
  });

  it('refuses what no JSON body may carry: NUL and lone surrogates written as escapes, deep nesting, alias bombs', () => {
    expect(() => parseApplyConfig('spec:\n  title: "a\\0b"\n')).toThrow('error decoding YAML: spec.title contains a NUL character (U+0000)');
    expect(() => parseApplyConfig('a: "\\ud800"\n')).toThrow('a contains a lone surrogate');
    expect(() => parseApplyConfig(`a: ${'['.repeat(200)}${']'.repeat(200)}`)).toThrow('is nested more than 100 levels deep');
    // Past a thousand levels the yaml parser itself gives up.
    expect(() => parseApplyConfig(`a: ${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toThrow('the document is nested more than 100 levels deep');
    let bomb = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    expect(() => parseApplyConfig(bomb)).toThrow('error decoding YAML: yaml: the document expands more than 100 aliases');
  });
});

describe('applyPatch (JSON patch)', () => {
  it('applies in order and leaves the original alone', () => {
    const current = { spec: { title: 'a', items: [] } };
    expect(applyPatch(JSON_PATCH, current, [{ op: 'add', path: '/spec/items/-', value: { v: 'x' } }, { op: 'test', path: '/spec/items/0/v', value: 'x' }])).toEqual({
      spec: { title: 'a', items: [{ v: 'x' }] },
    });
    expect(current.spec.items).toEqual([]);
  });
});

describe('warningHeader', () => {
  it("quotes as kube does and sends UTF-8 bytes", () => {
    expect(warningHeader('unknown field "spec.a\\b"')).toBe('299 - "unknown field \\"spec.a\\\\b\\""');
    expect(Buffer.from(warningHeader('é\nx'), 'latin1').toString('utf8')).toBe('299 - "é x"');
  });
});
