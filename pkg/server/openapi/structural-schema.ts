import { z, type ZodType } from 'zod';

/**
 * A zod schema as the OpenAPI v3 schema kube-apiserver publishes for a custom resource (a "structural" schema):
 * every node has a type; a loose object keeps its unknown fields (`x-kubernetes-preserve-unknown-fields`)
 * instead of an `additionalProperties: {}`; a value of no single type (a union) is an untyped node that
 * preserves whatever it holds; `additionalProperties: false` goes (kube prunes unknown fields itself).
 * Descriptions given with `.describe()` or `.meta()` are kept, for `kubectl explain`.
 *
 * @example
 *   structuralSchema(z.looseObject({ title: z.string(), tags: z.array(z.string()).nullish() }))
 *   // { type: 'object', properties: { title: { type: 'string' }, tags: { type: 'array', nullable: true,
 *   //   items: { type: 'string' } } }, required: ['title'], 'x-kubernetes-preserve-unknown-fields': true }
 */
export type JsonSchema = { [key: string]: unknown };

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Schema keywords kept as they are; anything else zod writes (`$schema`, `id`, `title`...) is dropped. */
const KEPT = new Set(['type', 'format', 'description', 'default', 'enum', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'nullable', 'minProperties', 'maxProperties']);

const ANY: JsonSchema = { 'x-kubernetes-preserve-unknown-fields': true };

function isEmpty(s: unknown): boolean {
  return s === true || (typeof s === 'object' && s !== null && Object.keys(s).length === 0);
}

/** One node of zod's openapi-3.0 output, made structural. */
export function toStructural(node: JsonSchema): JsonSchema {
  const union = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (union) {
    const members = union.filter((m) => !(m.type === 'null' || (Array.isArray(m.enum) && m.enum.length === 1 && m.enum[0] === null)));
    const nullable = node.nullable === true || members.length < union.length;
    const base = { ...(typeof node.description === 'string' ? { description: node.description } : {}), ...(nullable ? { nullable: true } : {}) };
    if (members.length === 1) return { ...toStructural(members[0]), ...base };
    const types = new Set(members.map((m) => m.type));
    if (types.size === 2 && types.has('string') && types.has('integer')) return { ...base, 'x-kubernetes-int-or-string': true };
    return { ...base, ...ANY };
  }
  if (node.allOf) return { ...ANY, ...(typeof node.description === 'string' ? { description: node.description } : {}) };
  if (isEmpty(node) || node.type === undefined) {
    return { ...ANY, ...(typeof node.description === 'string' ? { description: node.description } : {}), ...(node.nullable ? { nullable: true } : {}) };
  }

  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) if (KEPT.has(k)) out[k] = v;
  if (node.type === 'integer') {
    // zod's z.int() is a safe integer; kube spells that int64.
    if (out.minimum === -MAX_SAFE) delete out.minimum;
    if (out.maximum === MAX_SAFE) delete out.maximum;
    out.format ??= 'int64';
  }
  if (node.type === 'array') out.items = node.items && !isEmpty(node.items) ? toStructural(node.items as JsonSchema) : { ...ANY };
  if (node.type === 'object') {
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (props && Object.keys(props).length > 0) {
      out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, toStructural(v)]));
      const required = (node.required as string[] | undefined)?.filter((r) => r in props);
      if (required?.length) out.required = required;
    }
    const extra = node.additionalProperties;
    if (extra === undefined ? !props : extra === true || isEmpty(extra)) out['x-kubernetes-preserve-unknown-fields'] = true;
    else if (typeof extra === 'object' && extra !== null) {
      if (props && Object.keys(props).length > 0) out['x-kubernetes-preserve-unknown-fields'] = true;
      else out.additionalProperties = toStructural(extra as JsonSchema);
    }
  }
  return out;
}

/**
 * A kind's spec schema as kube publishes it. `io: 'input'`: the schema describes what clients send (defaults
 * are optional). Anything zod cannot express in JSON Schema, and a recursive reference, becomes a node that
 * preserves any value.
 */
export function structuralSchema(schema: ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as JsonSchema;
  return toStructural(raw);
}
