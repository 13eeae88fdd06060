import { generateName, generateNameProblem, MAX_NAME_LENGTH, nameProblem } from './names';

test('generated names are the prefix plus 5 characters of the kube alphabet, cut to fit 40', () => {
  expect(generateName('pl-')).toMatch(/^pl-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  const long = generateName('p'.repeat(100));
  expect(long).toHaveLength(MAX_NAME_LENGTH);
  expect(long.startsWith('p'.repeat(35))).toBe(true);
  expect(new Set(Array.from({ length: 50 }, () => generateName('x'))).size).toBeGreaterThan(45);
});

test.each([
  ['abc', undefined],
  ['A-b_9', undefined],
  ['a'.repeat(40), undefined],
  ['a'.repeat(41), 'Too long: may not be more than 40 characters'],
  ['a b', expect.stringContaining("alphanumeric characters, '-' or '_'")],
  ['a/b', expect.stringContaining('Invalid value: "a/b"')],
  ['', expect.stringContaining('Invalid value: ""')],
])('name %j', (name, problem) => {
  expect(nameProblem(name)).toEqual(problem);
});

test('generateName prefixes follow the same alphabet', () => {
  expect(generateNameProblem('ok-')).toBeUndefined();
  expect(generateNameProblem('no way')).toContain('name prefix');
});
