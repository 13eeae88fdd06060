import { describeProblem, jsonProblem, MAX_DEPTH, textProblem } from './input-limits';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
};

describe('textProblem', () => {
  it.each([
    ['plain', 'Service latency', undefined],
    ['a paired surrogate (an emoji)', 'ok \ud83d\ude00', undefined],
    ['NUL', 'a\u0000b', 'contains a NUL character (U+0000)'],
    ['a lone high surrogate', 'a\ud800', 'contains a lone surrogate (\\ud800), which is not Unicode text'],
    ['a lone low surrogate', '\udc00a', 'contains a lone surrogate (\\udc00), which is not Unicode text'],
    ['two high surrogates', '\ud800\ud800\udc00', 'contains a lone surrogate (\\ud800), which is not Unicode text'],
  ])('%s', (_, s, expected) => expect(textProblem(s)).toBe(expected));
});

describe('jsonProblem', () => {
  it('accepts what JSON carries and PostgreSQL stores', () => {
    expect(jsonProblem({ a: [1, 'x', null, true, { 'b c': -0.5 }], '': {} })).toBeUndefined();
    expect(jsonProblem('text')).toBeUndefined();
  });

  it('names where a bad string, key or number is', () => {
    expect(jsonProblem({ spec: { panels: [{ title: 'p\u0000' }] } })).toEqual({ path: 'spec.panels[0].title', message: 'contains a NUL character (U+0000)' });
    expect(jsonProblem({ metadata: { annotations: { 'a/b': '\ud800' } } })).toEqual({ path: 'metadata.annotations["a/b"]', message: expect.stringMatching(/lone surrogate/) });
    expect(jsonProblem({ spec: { ['k\u0000']: 1 } })).toEqual({ path: 'spec', message: 'has a key that contains a NUL character (U+0000)' });
    expect(jsonProblem(JSON.parse('{"x":1e400}'))).toEqual({ path: 'x', message: 'is a number out of range' });
    expect(jsonProblem('\u0000', { path: 'query' })).toEqual({ path: 'query', message: 'contains a NUL character (U+0000)' });
  });

  it('refuses __proto__ keys, which JavaScript objects do not keep as data', () => {
    expect(jsonProblem(JSON.parse('{"spec":{"__proto__":{"polluted":1}}}'))).toEqual({ path: 'spec', message: 'has the key "__proto__", which is not allowed' });
  });

  it('refuses what has no JSON form', () => {
    expect(jsonProblem({ when: new Date(0) })?.message).toBe('is not a JSON value');
    expect(jsonProblem({ f: () => 1 })?.message).toBe('is not a JSON value');
  });

  it('counts depth from the outermost container, and from where the value sits', () => {
    expect(jsonProblem(nested(MAX_DEPTH))).toBeUndefined();
    expect(jsonProblem(nested(MAX_DEPTH + 1))?.message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
    expect(jsonProblem(nested(3), { maxDepth: 3 })).toBeUndefined();
    expect(jsonProblem(nested(3), { maxDepth: 3, depth: 2, path: 'spec' })).toEqual({ path: 'spec.n[0]', message: 'is nested more than 3 levels deep' });
  });

  it('walks a value far deeper than the stack without overflowing it, and shows a short path', () => {
    const problem = jsonProblem(nested(1_000_000));
    expect(problem?.message).toBe(`is nested more than ${MAX_DEPTH} levels deep`);
    expect(problem!.path.length).toBeLessThan(200);
    expect(problem!.path.endsWith('…')).toBe(true);
  });

  it('is described as one sentence', () => {
    expect(describeProblem({ path: 'spec.title', message: 'contains a NUL character (U+0000)' }, 'the body')).toBe('spec.title contains a NUL character (U+0000)');
    expect(describeProblem({ path: '', message: 'is nested more than 100 levels deep' }, 'the body')).toBe('the body is nested more than 100 levels deep');
  });
});
