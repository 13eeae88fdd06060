/**
 * Fields a kind does not declare, found the way kube-apiserver finds them for a CRD with a structural schema:
 * members not named by the schema are "unknown" (and pruned: they are never stored), except under a node marked
 * `x-kubernetes-preserve-unknown-fields`. Here a kind's zod spec schema is the schema; `preserveUnknownFields` on
 * the kind marks its whole spec as free-form (dashboards: the dashboard JSON is kept as sent).
 */
import type { JsonObject, KindRegistration } from '../meta';

/** The members of kube's ObjectMeta and of the envelope: never unknown. */
const OBJECT_META = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
]);
const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

interface ZodDef {
  type: string;
  [k: string]: unknown;
}
const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;
const isPlainObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface UnknownFields {
  /** Paths as kube writes them, sorted: `foo`, `metadata.foo`, `spec.items[0].foo`. */
  paths: string[];
  /** The body without its unknown fields. */
  pruned: unknown;
}

/**
 * @example unknownFields(playlistKind, { metadata: { name: 'a', colour: 'red' }, spec: { title: 't', extra: 1 } })
 * // { paths: ['metadata.colour', 'spec.extra'], pruned: { metadata: { name: 'a' }, spec: { title: 't' } } }
 */
export function unknownFields(kind: KindRegistration, body: unknown): UnknownFields {
  const paths: string[] = [];
  if (!isPlainObject(body)) return { paths, pruned: body };
  const pruned: JsonObject = {};
  for (const [k, v] of Object.entries(body)) {
    if (!ENVELOPE.has(k)) paths.push(k);
    else if (k === 'metadata' && isPlainObject(v)) {
      for (const m of Object.keys(v)) if (!OBJECT_META.has(m)) paths.push(`metadata.${m}`);
      pruned.metadata = Object.fromEntries(Object.entries(v).filter(([m]) => OBJECT_META.has(m)));
    } else if (k === 'spec' && !kind.preserveUnknownFields) pruned.spec = walk(kind.specSchema, v, 'spec', paths);
    else pruned[k] = v;
  }
  // An answer's `reportAs` maps (secureValues) sent back are ignored by the registry, not unknown: a client that
  // writes back what it read must not be refused under fieldValidation=Strict.
  const reported = (kind.secureValues ?? []).map((s) => s.reportAs);
  const known = (p: string) => reported.some((r) => p === r || p.startsWith(`${r}.`));
  return { paths: paths.filter((p) => !known(p)).sort(), pruned };
}

/** Walks `value` along `schema`, collecting undeclared members; returns the value without them. */
function walk(schema: unknown, value: unknown, path: string, out: string[]): unknown {
  const def = defOf(schema);
  if (!def) return value;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return walk(def.innerType, value, path, out);
    case 'pipe':
      return walk(def.in, value, path, out);
    case 'lazy':
      return walk((def.getter as () => unknown)(), value, path, out);
    case 'object': {
      if (!isPlainObject(value)) return value;
      const shape = def.shape as Record<string, unknown>;
      const kept: JsonObject = {};
      for (const [k, v] of Object.entries(value)) {
        if (Object.hasOwn(shape, k)) kept[k] = walk(shape[k], v, `${path}.${k}`, out);
        else out.push(`${path}.${k}`);
      }
      return kept;
    }
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(def.valueType, v, `${path}.${k}`, out)]));
    case 'array':
      return Array.isArray(value) ? value.map((v, i) => walk(def.element, v, `${path}[${i}]`, out)) : value;
    case 'union': {
      // The member the value is: the first option it parses as.
      const options = def.options as { safeParse(v: unknown): { success: boolean } }[];
      const match = options.find((o) => o.safeParse(value).success);
      return match ? walk(match, value, path, out) : value;
    }
    default:
      return value;
  }
}
