import { authTokenKind, correlationKind, dashboardKind, dataSourceKind, orgKind, orgMemberKind, serviceAccountTokenKind, userKind } from '../../apis';
import type { Config } from '../config';
import { anyKind, type KindRegistration } from '../meta';
import type { QuotaLimit } from '../registry';
import { storedOrgLimit } from './stored-quotas';

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
}

/** The anchor's targets, in the order it lists them. */
export const QUOTA_TARGETS: readonly QuotaTarget[] = [
  { target: 'user', scope: 'org', limit: (q) => q.org_user, kind: anyKind(orgMemberKind), identity: true },
  { target: 'dashboard', scope: 'org', limit: (q) => q.org_dashboard, kind: anyKind(dashboardKind) },
  { target: 'data_source', scope: 'org', limit: (q) => q.org_data_source, kind: anyKind(dataSourceKind) },
  { target: 'api_key', scope: 'org', limit: (q) => q.org_api_key, kind: anyKind(serviceAccountTokenKind), identity: true },
  { target: 'alert_rule', scope: 'org', limit: (q) => q.org_alert_rule },
  { target: 'org', scope: 'user', limit: (q) => q.user_org },
];

const key = (kind: KindRegistration) => `${kind.plural}.${kind.group}`;
const active = (config: Config, limit: number) => (config.quota.enabled ? limit : undefined);
/** An organization's stored limit of `target` (PUT /api/orgs/:orgId/quotas/:target), over the setting: when enabled. */
const stored = (config: Config, target: string) => (config.quota.enabled ? storedOrgLimit(target) : undefined);

/**
 * The registry quotas of the served kinds from `[quota]` (none unless `quota.enabled`): dashboards and data sources
 * per organization (a limit an admin stored for the organization first) and in all, correlations in all.
 */
export function objectQuotas(config: Config): Record<string, QuotaLimit> {
  const q = config.quota;
  return {
    [key(anyKind(dashboardKind))]: { perNamespace: active(config, q.org_dashboard), stored: stored(config, 'dashboard'), global: active(config, q.global_dashboard) },
    [key(anyKind(dataSourceKind))]: { perNamespace: active(config, q.org_data_source), stored: stored(config, 'data_source') },
    [key(anyKind(correlationKind))]: { global: active(config, q.global_correlations) },
  };
}

/**
 * The identity registry's quotas from `[quota]`: users, organizations, service account tokens, sessions. `org_user`
 * is reported, not enforced: a user is created, then made a member, in two writes, and a membership refused after
 * the user was stored would leave half of a create behind.
 */
export function identityQuotas(config: Config): Record<string, QuotaLimit> {
  const q = config.quota;
  return {
    [key(anyKind(userKind))]: { global: active(config, q.global_user) },
    [key(anyKind(orgKind))]: { global: active(config, q.global_org) },
    [key(anyKind(serviceAccountTokenKind))]: { perNamespace: active(config, q.org_api_key), global: active(config, q.global_api_key) },
    [key(anyKind(authTokenKind))]: { global: active(config, q.global_session) },
  };
}
