import { jsonChanges, jsonDelta, jsonEqual } from './json-diff';

/** Applies a jsondiffpatch delta as jsondiffpatch's patch does (the subset jsonDelta writes), to check the delta is right. */
function applyDelta(a: unknown, delta: unknown): unknown {
  if (delta === undefined) return a;
  if (Array.isArray(delta)) return delta.length === 1 ? delta[0] : delta.length === 2 ? delta[1] : undefined;
  const d = delta as Record<string, unknown>;
  if (d._t === 'a') {
    const arr = [...(a as unknown[])];
    const removed = Object.keys(d).filter((k) => k.startsWith('_') && k !== '_t').map((k) => Number(k.slice(1))).sort((x, y) => y - x);
    for (const i of removed) arr.splice(i, 1);
    const rest = Object.keys(d).filter((k) => /^\d+$/.test(k)).map(Number).sort((x, y) => x - y);
    for (const i of rest) {
      const v = d[String(i)];
      if (Array.isArray(v) && v.length === 1) arr.splice(i, 0, v[0]);
      else arr[i] = applyDelta(arr[i], v);
    }
    return arr;
  }
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [k, v] of Object.entries(d)) {
    const next = applyDelta(out[k], v);
    if (next === undefined) delete out[k];
    else out[k] = next;
  }
  return out;
}

const cases: [unknown, unknown][] = [
  [{ title: 'A', tags: ['x'] }, { title: 'B', tags: ['x', 'y'] }],
  [{ panels: [{ id: 1, title: 'p' }, { id: 2 }] }, { panels: [{ id: 1, title: 'q' }] }],
  [{ a: [1, 2, 3] }, { a: [1, 5, 3, 4] }],
  [{ a: { b: { c: 1 } }, gone: true }, { a: { b: { c: 2, d: null } } }],
  [{ a: 1 }, { a: [1] }],
  [{ 'we/ird~': 1 }, { 'we/ird~': 2 }],
];

describe('jsonDelta', () => {
  it('is undefined for equal values, key order ignored', () => {
    expect(jsonDelta({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBeUndefined();
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  });

  it('writes the jsondiffpatch shapes', () => {
    expect(jsonDelta({ title: 'A', tags: ['x'] }, { title: 'B', tags: ['x', 'y'] })).toEqual({ title: ['A', 'B'], tags: { _t: 'a', 1: ['y'] } });
    expect(jsonDelta({ a: 1, b: 2 }, { b: 2, c: 3 })).toEqual({ a: [1, 0, 0], c: [3] });
    expect(jsonDelta({ a: [1, 2] }, { a: [1, 3] })).toEqual({ a: { _t: 'a', _1: [2, 0, 0], 1: [3] } });
    expect(jsonDelta({ p: [{ t: 'a' }] }, { p: [{ t: 'b' }] })).toEqual({ p: { _t: 'a', 0: { t: ['a', 'b'] } } });
  });

  it.each(cases)('turns a into b when applied (%j → %j)', (a, b) => {
    expect(applyDelta(a, jsonDelta(a, b))).toEqual(b);
  });

  it('keeps a key named __proto__ a key', () => {
    const a = JSON.parse('{"__proto__": {"x": 1}}');
    const b = JSON.parse('{"__proto__": {"x": 2}}');
    const d = jsonDelta(a, b) as Record<string, unknown>;
    expect(Object.keys(d)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
  });
});

describe('jsonChanges', () => {
  it('lists every leaf that differs by JSON Pointer', () => {
    expect(jsonChanges({ title: 'A', tags: ['x'], gone: 1 }, { title: 'B', tags: [], added: { x: 1 } })).toEqual([
      { op: 'replace', path: '/title', oldValue: 'A', value: 'B' },
      { op: 'remove', path: '/tags/0', oldValue: 'x' },
      { op: 'remove', path: '/gone', oldValue: 1 },
      { op: 'add', path: '/added', value: { x: 1 } },
    ]);
    expect(jsonChanges({ 'a/b': { '~': 1 } }, { 'a/b': { '~': 2 } })).toEqual([{ op: 'replace', path: '/a~1b/~0', oldValue: 1, value: 2 }]);
    expect(jsonChanges(1, 1)).toEqual([]);
    expect(jsonChanges({ a: 1 }, [1])).toEqual([{ op: 'replace', path: '', oldValue: { a: 1 }, value: [1] }]);
  });
});
