import { StatusError } from '../errors';
import type { KindRegistration, Resource } from '../meta';
import type { StorageTx } from '../../storage';

/**
 * The objects an object names (KindRegistration.references) exist in its namespace; each stays locked (share)
 * until the write commits, so a concurrent delete of it waits and then takes the referrer with it (a cascade).
 *
 * @throws StatusError 400 naming the field: `data source "x" not found`.
 */
export async function checkReferences(tx: StorageTx, kind: KindRegistration, obj: Resource): Promise<void> {
  for (const ref of kind.references ?? []) {
    const name = ref.name(obj.spec);
    if (!name) continue;
    const found = await tx.get({ group: ref.group, resource: ref.resource, namespace: obj.metadata.namespace, name }, { lock: 'share' });
    if (!found) {
      throw new StatusError(400, 'BadRequest', `${ref.resource}.${ref.group} "${name}" not found`, {
        causes: [{ reason: 'FieldValueNotFound', field: `spec.${ref.field}`, message: `Not found: "${name}"` }],
      });
    }
  }
}
