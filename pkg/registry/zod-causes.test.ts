import v8 from 'node:v8';
import { z } from 'zod';
import { causesFromZod, REPORTING_PARSE } from './zod-causes';

// V8's own test of hidden classes, compiled after the flag that allows it.
v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

test('the registry\'s parse options report the failing value', () => {
  const parsed = z.object({ title: z.string() }).safeParse({ title: 7 }, REPORTING_PARSE);
  expect(parsed.success).toBe(false);
  expect((parsed.error!.issues[0] as { input?: unknown }).input).toBe(7);
  expect(causesFromZod(parsed.error!, 'spec')).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.title', message: expect.stringContaining('Invalid value: 7') }]);
});

test('the contexts zod makes of them share one hidden class', () => {
  // zod's copy (v4 core/parse: `{ ..._ctx, async: false }`): with `async` among the options it overrides, not adds.
  const copies = Array.from({ length: 20 }, () => ({ ...REPORTING_PARSE, async: false }));
  expect(haveSameMap(copies[18]!, copies[19]!)).toBe(true);
  const without = { reportInput: true };
  const added = Array.from({ length: 20 }, () => ({ ...without, async: false }));
  expect(haveSameMap(added[18]!, added[19]!)).toBe(false);
});
