import { createHmac } from 'node:crypto';
import type { KindRegistration, Resource } from '../meta';
import { PROVISIONER_IDENTITY } from '../meta';
import type { OrgDirectory, Registry, RequestContext } from '../registry';

/** What applying files needs of the server: the registry it writes through and the organizations it writes to. */
export interface ApplyDeps {
  registry: Registry;
  orgs: OrgDirectory;
  /** Keys the digests of what files said (`sourceChecksum`): a digest of a secret says nothing without it. */
  checksumKey: string;
  /** Every organization's id: where `prune` and orphaned providers' dashboards are looked for. */
  orgIds(): Promise<number[]>;
}

/**
 * The provisioner's own request context in an organization: its identity is the one the registry lets change
 * provisioned objects; no access checks (the server's own write).
 */
export function provisionerCtx(deps: Pick<ApplyDeps, 'registry'>, orgId: number): RequestContext {
  return { requester: { identity: PROVISIONER_IDENTITY, login: 'provisioning' }, namespace: deps.registry.namespaces.of(orgId), fieldManager: 'svc-provisioning' };
}

/** A keyed digest of what a file said of one object. */
export function checksumOf(key: string, value: unknown): string {
  return createHmac('sha256', key).update(JSON.stringify(value)).digest('hex');
}

/** Every object of a kind in an organization (the provisioner's lists are small: one org's data sources, dashboards). */
export async function listAll(deps: Pick<ApplyDeps, 'registry'>, orgId: number, kind: KindRegistration): Promise<Resource[]> {
  const ctx = provisionerCtx(deps, orgId);
  const out: Resource[] = [];
  let next: string | undefined;
  do {
    const page = await deps.registry.list(ctx, kind, { limit: 500, continue: next });
    out.push(...page.items);
    next = page.metadata.continue;
  } while (next);
  return out;
}
