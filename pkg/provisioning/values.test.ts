import { interpolate, interpolateAll, InterpolationError } from './values';

const env = { HOME: '/root', PASS: 's3cret', EMPTY: '' };
const files: Record<string, string> = { '/run/secret': '  from-file\n' };
const sources = { env, readFile: (p: string) => { if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`); return files[p]!; } };

describe('interpolate (the anchor\'s values.go)', () => {
  it.each([
    ['plain', 'plain'],
    ['$HOME', '/root'],
    ['${HOME}/x', '/root/x'],
    ['a$HOME.b', 'a/root.b'],
    ['$UNSET', ''],
    ['${UNSET}x', 'x'],
    ['$$', '$'],
    ['$$HOME', '$HOME'],
    ['pa$$word', 'pa$word'],
    ['$$${HOME}', '$/root'],
    ['$__env{PASS}', 's3cret'],
    ['x$__env{UNSET}y', 'xy'],
    ['$__file{/run/secret}', 'from-file'],
    // No vault here: the expander is left alone, then `$__vault` is an unset variable, as in the anchor's OSS build.
    ['$__vault{a}', '{a}'],
    ['cost: 5$', 'cost: 5$'],
  ])('%s -> %s', (raw, want) => {
    expect(interpolate(raw, sources)).toBe(want);
  });

  it('a missing $__file is the reference\'s error naming the raw value', () => {
    expect(() => interpolate('$__file{/nope}', sources)).toThrow(InterpolationError);
    expect(() => interpolate('$__file{/nope}', sources)).toThrow(/^failed to interpolate value '\$__file\{\/nope\}': ENOENT/);
  });

  it('expands string values at every depth, never keys nor other values', () => {
    expect(interpolateAll({ $HOME: '$HOME', n: 5, b: true, nil: null, list: ['$PASS', { deep: '${HOME}' }] }, sources)).toEqual({
      $HOME: '/root', n: 5, b: true, nil: null, list: ['s3cret', { deep: '/root' }],
    });
  });

  it('tells where a value failed', () => {
    const seen: PropertyKey[][] = [];
    expect(() => interpolateAll({ a: [{ b: '$__file{/nope}' }] }, sources, [], (p, err) => { seen.push(p); throw err; })).toThrow(InterpolationError);
    expect(seen).toEqual([['a', 0, 'b']]);
  });
});
