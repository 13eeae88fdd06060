import { quotaKind } from '../../apis';
import type { StorageTx } from '../../storage';
import { storedAs } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { SETTINGS_NAMESPACE } from '../settings';
import type { QuotaScope } from './quota-targets';

/** The object name of a limit: `data_source` → `data-source` in the org's namespace, `user-7-org` for a user's. */
const objectName = (scope: QuotaScope, id: number, target: string) => (scope === 'org' ? target : `user-${id}-${target}`).replaceAll('_', '-');

/** The label naming whose limit an object holds (`org-2`, `user-7`), so a list reads one owner's limits only. */
const OWNER_LABEL = 'svc.app/quota-of';

/** The limit a stored Quota object holds, as a transaction sees it. */
async function readLimit(tx: StorageTx, namespace: string, name: string): Promise<number | undefined> {
  const stored = await tx.get({ group: quotaKind.group, resource: quotaKind.plural, namespace, name });
  return stored && storedAs(quotaKind, stored.value).spec.limit;
}

/**
 * The limit an admin set on an organization's target, read in the creating transaction (RegistryOptions.quotas
 * `stored`): the Quota object in that organization's namespace, if any.
 */
export function storedOrgLimit(target: string): (tx: StorageTx, namespace: string) => Promise<number | undefined> {
  return (tx, namespace) => readLimit(tx, namespace, objectName('org', 0, target));
}

/**
 * The limit an admin set on a user's target (`org`), read in the creating transaction: the Quota object in the
 * settings namespace, if any.
 */
export function storedUserLimit(target: string): (tx: StorageTx, userId: number) => Promise<number | undefined> {
  return (tx, userId) => readLimit(tx, SETTINGS_NAMESPACE, objectName('user', userId, target));
}

/**
 * The quota limits set through the PUT quota routes, as Quota objects of a registry that serves that kind (see
 * `internalKinds`): an organization's in its namespace (so the creating transaction reads it, and the organization's
 * objects and limits share a namespace), a user's in the settings namespace. Each replica reads what another wrote.
 *
 * @example
 *   const quotas = new StoredQuotas(registry.companion(internalKinds));
 *   await quotas.set('org', 2, registry.namespaces.of(2), 'dashboard', 5);
 *   await quotas.limits('org', 2, registry.namespaces.of(2)); // { dashboard: 5 }
 */
export class StoredQuotas {
  constructor(private readonly registry: Registry) {}

  private ctx(namespace: string): RequestContext {
    return { requester: { identity: 'service:quotas' }, namespace, fieldManager: 'admin-quotas' };
  }

  /** Where a limit of this scope lives: the organization's namespace, or the settings namespace for a user's. */
  private namespace(scope: QuotaScope, orgNamespace?: string): string {
    return scope === 'org' ? orgNamespace! : SETTINGS_NAMESPACE;
  }

  /** Sets one limit (-1: none), in one write. `orgNamespace`: the organization's namespace, for an org's limit. */
  async set(scope: QuotaScope, id: number, orgNamespace: string | undefined, target: string, limit: number): Promise<void> {
    await this.registry.init();
    const name = objectName(scope, id, target);
    await this.registry.upsert(this.ctx(this.namespace(scope, orgNamespace)), quotaKind, name, () => ({
      apiVersion: `${quotaKind.group}/${quotaKind.version}`,
      kind: quotaKind.kind,
      metadata: { name, labels: { [OWNER_LABEL]: `${scope}-${id}` } },
      spec: { scope, id, target, limit },
    }));
  }

  /** The limits set for this organization or user, by target. */
  async limits(scope: QuotaScope, id: number, orgNamespace?: string): Promise<Record<string, number>> {
    await this.registry.init();
    const { items } = await this.registry.list(this.ctx(this.namespace(scope, orgNamespace)), quotaKind, { labelSelector: `${OWNER_LABEL}=${scope}-${id}` });
    const out: Record<string, number> = {};
    for (const { spec } of items) {
      if (spec.scope === scope && spec.id === id) out[spec.target] = spec.limit;
    }
    return out;
  }
}
