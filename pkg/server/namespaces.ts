import { StatusError } from '../errors';

/**
 * Spec §9.3: namespace `default` is organization 1, `org-<id>` organization <id>.
 * @example orgIdOf('org-7') // 7;  namespaceOf(1) // 'default'
 */
export function orgIdOf(namespace: string): number | undefined {
  if (namespace === 'default') return 1;
  const m = /^org-([1-9][0-9]{0,9})$/.exec(namespace);
  const id = m ? Number(m[1]) : undefined;
  return id !== undefined && id > 1 ? id : undefined;
}

export function namespaceOf(orgId: number): string {
  return orgId === 1 ? 'default' : `org-${orgId}`;
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
