import type { JsonObject, KindRegistration } from '../meta';
import { markSecureValues } from './secure-values';

/** Whether history records something else than the stored value of the kind's objects (see historyValueOf). */
export const redactsHistory = (kind: KindRegistration): boolean => !!(kind.secretFields?.length || kind.secureValues?.length);

/**
 * What history records of a value of `kind`: the value without the kind's secret fields
 * ({@link KindRegistration.secretFields}) and with each secure value ({@link KindRegistration.secureValues}) as ''
 * (its key, not its ciphertext), or undefined when the kind has neither (history records the value itself).
 *
 * @example
 *   historyValueOf(userKind, { metadata: { name: '2' }, spec: { login: 'ana', passwordHash: '$scrypt$…' } });
 *   // { metadata: { name: '2' }, spec: { login: 'ana' } }
 */
export function historyValueOf(kind: KindRegistration, value: JsonObject): JsonObject | undefined {
  if (!redactsHistory(kind)) return undefined;
  const out = structuredClone(value);
  markSecureValues(kind, out);
  for (const path of kind.secretFields ?? []) {
    const steps = path.split('.');
    let at: unknown = out;
    for (const step of steps.slice(0, -1)) at = isObject(at) ? at[step] : undefined;
    if (isObject(at)) delete at[steps[steps.length - 1]!];
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
