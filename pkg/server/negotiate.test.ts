import type { Request } from 'express';
import { negotiate, parseAccept, pickOffer, TABLE_CONTENT_TYPE } from './negotiate';

const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

function req(accept: string | undefined, query: Record<string, unknown> = {}): Request {
  return { get: (h: string) => (h.toLowerCase() === 'accept' ? accept : undefined), query } as unknown as Request;
}

describe('parseAccept', () => {
  test('an absent or empty header is */*', () => {
    expect(parseAccept(undefined)).toEqual([{ type: '*', subtype: '*', params: {}, q: 1 }]);
    expect(parseAccept('  ')).toEqual([{ type: '*', subtype: '*', params: {}, q: 1 }]);
  });

  test('parameters, case and whitespace', () => {
    expect(parseAccept(' Application/JSON ; as=Table ; V=v1;g=meta.k8s.io')).toEqual([
      { type: 'application', subtype: 'json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io' }, q: 1 },
    ]);
  });

  test('q-values order the ranges; q=0 removes one; equal q keeps concrete types first, then written order', () => {
    const ranges = parseAccept('*/*;q=0.1, application/yaml;q=0, text/plain;q=0.5, application/*, application/json');
    expect(ranges.map((r) => `${r.type}/${r.subtype};${r.q}`)).toEqual(['application/json;1', 'application/*;1', 'text/plain;0.5', '*/*;0.1']);
  });

  test('quoted values may hold commas and semicolons; malformed ranges are skipped', () => {
    expect(parseAccept('application/json;x="a,b;c", nonsense, */json, application/')).toEqual([
      { type: 'application', subtype: 'json', params: { x: 'a,b;c' }, q: 1 },
    ]);
  });
});

describe('negotiate', () => {
  test('kubectl get asks for Table v1 first: a Table, objects as metadata', () => {
    expect(negotiate(req(KUBECTL_GET))).toEqual({ kind: 'table', includeObject: 'Metadata' });
  });

  test('includeObject None|Metadata|Object; anything else is 400', () => {
    for (const v of ['None', 'Metadata', 'Object'] as const) expect(negotiate(req(KUBECTL_GET, { includeObject: v }))).toEqual({ kind: 'table', includeObject: v });
    expect(() => negotiate(req(KUBECTL_GET, { includeObject: 'All' }))).toThrow(expect.objectContaining({ code: 400 }));
  });

  test('plain JSON for no header, */*, application/json, application/*, with charset', () => {
    for (const a of [undefined, '*/*', 'application/json', 'application/*', 'application/json; charset=utf-8', 'text/html,*/*;q=0.8']) {
      expect([a, negotiate(req(a))]).toEqual([a, { kind: 'json' }]);
    }
  });

  test('a Table v1beta1 falls through to the next acceptable range', () => {
    expect(negotiate(req('application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json;q=0.9'))).toEqual({ kind: 'json' });
  });

  test('q-values decide between Table and JSON', () => {
    expect(negotiate(req('application/json;q=0.5, application/json;as=Table;v=v1;g=meta.k8s.io'))).toEqual({ kind: 'table', includeObject: 'Metadata' });
    expect(negotiate(req('application/json, application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5'))).toEqual({ kind: 'json' });
  });

  test('406 NotAcceptable when nothing acceptable is left', () => {
    for (const a of [
      'application/vnd.kubernetes.protobuf',
      'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
      'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      'application/json;as=Table;g=meta.k8s.io',
      'application/yaml',
      'application/json;q=0',
    ]) {
      let thrown: unknown;
      try {
        negotiate(req(a));
      } catch (e) {
        thrown = e;
      }
      expect([a, thrown]).toEqual([a, expect.objectContaining({ code: 406, reason: 'NotAcceptable' })]);
      expect((thrown as Error).message).toContain(TABLE_CONTENT_TYPE);
    }
  });
});

test('pickOffer takes wildcards with conversion parameters', () => {
  const offers = [
    { type: 'application', subtype: 'json', value: 'json' },
    { type: 'application', subtype: 'json', convert: { as: 'Table', g: 'meta.k8s.io', v: 'v1' }, value: 'table' },
  ];
  expect(pickOffer('*/*;as=Table;v=v1;g=meta.k8s.io', offers)?.value).toBe('table');
  expect(pickOffer('text/plain', offers)).toBeUndefined();
});
