import { StatusError } from '../errors';

/**
 * How namespaces name organizations (spec §9.3): on-premise, `default` is organization 1; in the cloud edition it is
 * `stacks-<stack_id>` (one stack, one organization), and `default` names nothing. Other organizations are
 * `org-<id>` either way.
 */
export interface NamespaceScheme {
  /** The cloud edition's stack id; unset on-premise. */
  stackId?: string;
}

let scheme: NamespaceScheme = {};

/**
 * Sets the naming for the process, from the configuration (createApp does, once). Objects are stored under the
 * namespace of their organization, so a server keeps one scheme for its data's whole life.
 *
 * @example
 *   configureNamespaces({ stackId: '4242' });
 *   namespaceOf(1); // 'stacks-4242'
 */
export function configureNamespaces(next: NamespaceScheme): void {
  scheme = { ...next };
}

/** The namespace of organization 1 under the configured scheme. */
function mainNamespace(): string {
  return scheme.stackId !== undefined ? `stacks-${scheme.stackId}` : 'default';
}

/**
 * The organization a namespace names, or undefined.
 * @example orgIdOf('org-7') // 7;  orgIdOf('default') // 1 (on-premise)
 */
export function orgIdOf(namespace: string): number | undefined {
  if (namespace === mainNamespace()) return 1;
  const m = /^org-([1-9][0-9]{0,9})$/.exec(namespace);
  const id = m ? Number(m[1]) : undefined;
  return id !== undefined && id > 1 ? id : undefined;
}

/**
 * The namespace of an organization.
 * @example namespaceOf(1) // 'default' ('stacks-<stack_id>' in the cloud edition);  namespaceOf(7) // 'org-7'
 */
export function namespaceOf(orgId: number): string {
  return orgId === 1 ? mainNamespace() : `org-${orgId}`;
}

/** Which organizations exist. */
export interface OrgDirectory {
  exists(orgId: number): Promise<boolean>;
}

/** The stored organizations (iam.svc.app Org objects), as the identity directory reads them. */
export function storedOrgs(orgs: { orgById(id: number): Promise<unknown> }): OrgDirectory {
  return { exists: async (id) => (await orgs.orgById(id)) !== undefined };
}

/** Only organization 1: for routers mounted without stored organizations (their own test suites). */

/** The org a namespace names, or 404 `namespaces "x" not found` as kube-apiserver answers for a missing namespace. */
export async function resolveNamespace(namespace: string, orgs: OrgDirectory): Promise<number> {
  const orgId = orgIdOf(namespace);
  if (orgId === undefined || !(await orgs.exists(orgId))) throw StatusError.notFound({ group: '', resource: 'namespaces' }, namespace);
  return orgId;
}
