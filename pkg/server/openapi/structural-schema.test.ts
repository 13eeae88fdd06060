import { z } from 'zod';
import { structuralSchema } from './structural-schema';

test('loose objects preserve unknown fields; strict ones do not say additionalProperties: false', () => {
  expect(structuralSchema(z.looseObject({ title: z.string().describe('The title.') }))).toEqual({
    type: 'object',
    properties: { title: { type: 'string', description: 'The title.' } },
    required: ['title'],
    'x-kubernetes-preserve-unknown-fields': true,
  });
  expect(structuralSchema(z.object({ a: z.string().optional() }))).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
});

test('records, unknown values and untyped array items preserve what they hold', () => {
  expect(structuralSchema(z.record(z.string(), z.unknown()))).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  expect(structuralSchema(z.record(z.string(), z.string()))).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  expect(structuralSchema(z.array(z.unknown()))).toEqual({ type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } });
  expect(structuralSchema(z.unknown())).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
});

test('nullish is nullable; unions of one type narrow; int|string is int-or-string; other unions preserve any value', () => {
  const s = structuralSchema(
    z.object({
      a: z.string().nullish(),
      b: z.union([z.string(), z.literal(false)]).nullish(),
      c: z.union([z.int(), z.string()]),
      d: z.union([z.literal('x'), z.null()]),
      e: z.int().min(0).max(11),
      f: z.enum(['p', 'q']).default('p'),
    }),
  ) as { properties: Record<string, unknown> };
  expect(s.properties).toEqual({
    a: { type: 'string', nullable: true },
    b: { nullable: true, 'x-kubernetes-preserve-unknown-fields': true },
    c: { 'x-kubernetes-int-or-string': true },
    d: { type: 'string', enum: ['x'], nullable: true },
    e: { type: 'integer', format: 'int64', minimum: 0, maximum: 11 },
    f: { type: 'string', enum: ['p', 'q'], default: 'p' },
  });
});

test('a recursive schema does not stop the server: the recursion preserves any value', () => {
  type Node = { name: string; children?: Node[] };
  const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node).optional() }));
  expect(() => structuralSchema(node)).not.toThrow();
});
