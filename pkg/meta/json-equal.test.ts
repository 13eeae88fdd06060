import { jsonEqual } from './json-equal';

test.each([
  [{ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }, true],
  [{ a: 1 }, { a: 1, b: undefined }, true],
  [Object.assign(Object.create(null), { a: [1] }), { a: [1] }, true],
  [{ a: 1 }, { a: '1' }, false],
  [[1, 2], [2, 1], false],
  [{ a: [] }, { a: {} }, false],
  [{ a: null }, { a: undefined }, false],
  [{ a: 1 }, { b: 1 }, false],
])('jsonEqual(%j, %j) is %s', (a, b, want) => {
  expect(jsonEqual(a, b)).toBe(want);
  expect(jsonEqual(b, a)).toBe(want);
});
