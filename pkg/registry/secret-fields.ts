import type { JsonObject, KindRegistration } from '../meta';

/**
 * What history records of a value of `kind`: the value without the kind's secret fields
 * ({@link KindRegistration.secretFields}), or undefined when the kind has none (history records the value itself).
 *
 * @example
 *   historyValueOf(userKind, { metadata: { name: '2' }, spec: { login: 'ana', passwordHash: '$scrypt$…' } });
 *   // { metadata: { name: '2' }, spec: { login: 'ana' } }
 */
export function historyValueOf(kind: KindRegistration, value: JsonObject): JsonObject | undefined {
  if (!kind.secretFields?.length) return undefined;
  const out = structuredClone(value);
  for (const path of kind.secretFields) {
    const steps = path.split('.');
    let at: unknown = out;
    for (const step of steps.slice(0, -1)) at = isObject(at) ? at[step] : undefined;
    if (isObject(at)) delete at[steps[steps.length - 1]!];
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
