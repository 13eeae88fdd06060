import { StatusError } from '../errors';
import type { KindRegistration, KindUnique, Resource } from '../meta';
import type { UniqueKey } from '../../storage';

/**
 * The unique fields a kind declares (KindRegistration.unique), as storage keeps them: one key per value, scoped to
 * the object's namespace or to the whole type.
 */

function valuesOf(u: KindUnique, obj: Resource): string[] {
  const v = u.value(obj.spec, obj);
  return (typeof v === 'string' ? [v] : [...v]).filter((s) => s !== '');
}

/**
 * The keys an object holds, or undefined when its kind declares no unique field.
 *
 * @example uniqueKeysOf(teamKind, team); // [{ scope: 'default', field: 'name', value: 'ops' }]
 */
export function uniqueKeysOf(kind: KindRegistration, obj: Resource): UniqueKey[] | undefined {
  if (!kind.unique) return undefined;
  return kind.unique.flatMap((u) =>
    valuesOf(u, obj).map((value) => ({ scope: u.scope === 'cluster' ? '' : obj.metadata.namespace, field: u.field, value })),
  );
}

/** The keys of the fields a kind declares, from a stored value (see Storage.syncUniqueKeys). */
export function storedUniqueKeys(kind: KindRegistration, value: unknown): UniqueKey[] {
  try {
    return uniqueKeysOf(kind, value as Resource) ?? [];
  } catch {
    // A value stored before its spec had the field holds nothing.
    return [];
  }
}

/**
 * The refusal of a write whose value another object holds: the field's own `error`, else 409 Conflict.
 *
 * @example uniqueViolation(orgKind, '7', { scope: '', field: 'name', value: 'ops' }).message; // 'Organization name taken'
 */
export function uniqueViolation(kind: KindRegistration, name: string, key: UniqueKey | undefined): StatusError {
  const u = kind.unique?.find((f) => f.field === key?.field);
  if (u?.error) return u.error(key!.value);
  const what = key ? `spec.${key.field} ${JSON.stringify(key.value)}` : 'a unique field';
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${kind.plural}.${kind.group} "${name}": ${what} is held by another object`, {
    name,
    group: kind.group,
    kind: kind.plural,
    causes: key ? [{ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(key.value)}`, field: `spec.${key.field}` }] : undefined,
  });
}
