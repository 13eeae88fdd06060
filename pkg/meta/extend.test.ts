import v8 from 'node:v8';
import { extend } from './extend';

// V8's own test of hidden classes, compiled after the flag that allows it.
v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const typeOf = (group: string, resource: string) => ({ group, resource });

test('extend is the spread of both, the later winning', () => {
  expect(extend({ a: 1, b: 2 }, { b: 3, c: 4 })).toEqual({ a: 1, b: 3, c: 4 });
  expect(Object.keys(extend({ a: 1, b: 2 }, { c: 4, b: 3 }))).toEqual(['a', 'b', 'c']);
  const base = { a: 1 };
  expect(extend(base, { b: 2 })).not.toBe(base);
  expect(base).toEqual({ a: 1 });
});

test('objects made alike by extend share one hidden class', () => {
  const made = Array.from({ length: 50 }, (_, i) => extend(typeOf('g', 'r'), { namespace: 'ns', name: `n${i}` }));
  expect(haveSameMap(made[48]!, made[49]!)).toBe(true);
  // What it replaces: on this Node every object of such a literal has a class of its own (when a later Node links
  // them, this line fails and extend can go).
  const spread = Array.from({ length: 50 }, (_, i) => ({ ...typeOf('g', 'r'), namespace: 'ns', name: `n${i}` }));
  expect(haveSameMap(spread[48]!, spread[49]!)).toBe(false);
});
