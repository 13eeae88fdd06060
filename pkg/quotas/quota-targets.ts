import { authTokenKind, correlationKind, dashboardKind, dataSourceKind, orgKind, orgMemberKind, serviceAccountTokenKind, userKind } from '../../apis';
import type { Config } from '../config';
import { TOKEN_LABELS, TOKENS_NAMESPACE } from '../../apis/iam.svc.app/v0alpha1/serviceaccounttoken';
import { anyKind, type KindRegistration } from '../meta';
import type { Namespaces, QuotaLimit } from '../registry';
import { storedOrgLimit, storedUserLimit } from './stored-quotas';

/** Whose quota: an organization's (its objects) or a user's (the organizations it belongs to). */
export type QuotaScope = 'org' | 'user';

/** One of the anchor's quota targets: its name, scope, the `[quota]` setting of its limit, and the kind it counts. */
export interface QuotaTarget {
  target: string;
  scope: QuotaScope;
  limit: (quota: Config['quota']) => number;
  /** The kind counted (in the org's namespace for an org quota); none: nothing of it is stored here (0 used). */
  kind?: KindRegistration;
  /** Whether the kind lives in the identity registry (users, orgs, memberships, tokens). */
  identity?: boolean;
  /** Where an organization's objects of the kind are: its namespace unless this says otherwise. */
  where?: (orgId: number) => { namespace: string; labels: Record<string, string> };
}

/** An organization's service account tokens: in the identity namespace, labelled with the organization. */
const tokensOf = (orgId: number) => ({ namespace: TOKENS_NAMESPACE, labels: { [TOKEN_LABELS.orgId]: String(orgId) } });

/** The anchor's targets, in the order it lists them. */
export const QUOTA_TARGETS: readonly QuotaTarget[] = [
  { target: 'user', scope: 'org', limit: (q) => q.org_user, kind: anyKind(orgMemberKind), identity: true },
  { target: 'dashboard', scope: 'org', limit: (q) => q.org_dashboard, kind: anyKind(dashboardKind) },
  { target: 'data_source', scope: 'org', limit: (q) => q.org_data_source, kind: anyKind(dataSourceKind) },
  { target: 'api_key', scope: 'org', limit: (q) => q.org_api_key, kind: anyKind(serviceAccountTokenKind), identity: true, where: tokensOf },
  { target: 'alert_rule', scope: 'org', limit: (q) => q.org_alert_rule },
  { target: 'org', scope: 'user', limit: (q) => q.user_org },
];

const key = <S>(kind: KindRegistration<S>) => `${kind.plural}.${kind.group}`;

/**
 * The registry quotas of the served kinds from `[quota]` (none unless `quota.enabled`): dashboards and data sources
 * per organization (a limit an admin stored for the organization first) and in all, correlations in all. Disabled,
 * there is no entry at all, so a create counts nothing and reads no stored limit.
 */
export function objectQuotas(config: Config): Record<string, QuotaLimit> {
  const q = config.quota;
  if (!q.enabled) return {};
  return {
    // An organization's stored limit (PUT /api/orgs/:orgId/quotas/:target) comes before the setting.
    [key(dashboardKind)]: { perNamespace: q.org_dashboard, stored: storedOrgLimit('dashboard'), global: q.global_dashboard },
    [key(dataSourceKind)]: { perNamespace: q.org_data_source, stored: storedOrgLimit('data_source') },
    [key(correlationKind)]: { global: q.global_correlations },
  };
}

/**
 * The identity registry's quotas from `[quota]`: users, organizations and sessions in all; the members of each
 * organization (`org_user`, its namespace) and the organizations of each user (`user_org`: its memberships, named by
 * its id in every organization's namespace); service account tokens in all and per organization (`org_api_key`:
 * tokens live in the identity namespace, labelled with their organization). A limit stored for the organization or
 * user comes first; each is counted in the creating transaction.
 */
export function identityQuotas(config: Config, namespaces: Namespaces): Record<string, QuotaLimit> {
  const q = config.quota;
  if (!q.enabled) return {};
  return {
    [key(userKind)]: { global: q.global_user },
    [key(orgKind)]: { global: q.global_org },
    [key(orgMemberKind)]: {
      perNamespace: q.org_user,
      stored: storedOrgLimit('user'),
      groups: async (tx, member) => {
        const userId = Number(member.metadata.name);
        return [{ match: { namespace: '', everyNamespace: true, names: [member.metadata.name] }, limit: (await storedUserLimit('org')(tx, userId)) ?? q.user_org }];
      },
    },
    [key(serviceAccountTokenKind)]: {
      global: q.global_api_key,
      groups: async (tx, token) => {
        const orgId = Number(token.spec.orgId);
        const { namespace, labels } = tokensOf(orgId);
        const match = { namespace, labels: Object.entries(labels).map(([k, v]) => ({ key: k, operator: 'Equals' as const, values: [v] })) };
        return [{ match, limit: (await storedOrgLimit('api_key')(tx, namespaces.of(orgId))) ?? q.org_api_key }];
      },
    },
    [key(authTokenKind)]: { global: q.global_session },
  };
}
