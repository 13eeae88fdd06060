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

/** Which organizations exist. */
export interface OrgDirectory {
  exists(orgId: number): Promise<boolean>;
}

/**
 * The naming of one server's data, built from its configuration and carried by its registries (`registry.namespaces`),
 * so two servers of different editions can run in one process. Objects are stored under the namespace of their
 * organization, so a server keeps one scheme for its data's whole life.
 *
 * @example
 *   const namespaces = new Namespaces({ stackId: '4242' });
 *   namespaces.of(1); // 'stacks-4242'
 *   namespaces.orgIdOf('org-7'); // 7
 */
export class Namespaces {
  private readonly main: string;

  constructor(scheme: NamespaceScheme = {}) {
    this.main = scheme.stackId !== undefined ? `stacks-${scheme.stackId}` : 'default';
  }

  /**
   * The organization a namespace names, or undefined.
   * @example orgIdOf('org-7') // 7;  orgIdOf('default') // 1 (on-premise)
   */
  orgIdOf(namespace: string): number | undefined {
    if (namespace === this.main) return 1;
    const m = /^org-([1-9][0-9]{0,9})$/.exec(namespace);
    const id = m ? Number(m[1]) : undefined;
    return id !== undefined && id > 1 ? id : undefined;
  }

  /**
   * The namespace of an organization.
   * @example of(1) // 'default' ('stacks-<stack_id>' in the cloud edition);  of(7) // 'org-7'
   */
  of(orgId: number): string {
    return orgId === 1 ? this.main : `org-${orgId}`;
  }

  /** The org a namespace names, or 404 `namespaces "x" not found` as kube-apiserver answers for a missing namespace. */
  async resolve(namespace: string, orgs: OrgDirectory): Promise<number> {
    const orgId = this.orgIdOf(namespace);
    if (orgId === undefined || !(await orgs.exists(orgId))) throw StatusError.notFound({ group: '', resource: 'namespaces' }, namespace);
    return orgId;
  }
}

/** The stored organizations (iam.svc.app Org objects), as the identity directory reads them. */
export function storedOrgs(orgs: { orgById(id: number): Promise<unknown> }): OrgDirectory {
  return { exists: async (id) => (await orgs.orgById(id)) !== undefined };
}
