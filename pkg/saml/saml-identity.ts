import type { Profile } from '@node-saml/node-saml';
import type { OrgRole } from '../../apis/iam.svc.app/v0alpha1/orgmember/orgmember-schema';
import type { AuthSamlConfig } from '../config';
import { listSetting } from './saml-settings';

/** Who a validated assertion says the user is, and what it may do, by the `assertion_attribute_*` and role settings. */
export interface SamlIdentity {
  login: string;
  email: string;
  name: string;
  /** The org roles the assertion maps to, by org id; empty when it maps none (then the default org and role apply). */
  orgRoles: Map<number, OrgRole>;
  /** Decided only when `role_values_svc_admin` is set: whether the user is a server administrator. */
  isSvcAdmin?: boolean;
  /** The IdP's session, for single logout. */
  nameID: string;
  nameIDFormat?: string;
  sessionIndex?: string;
}

/** An assertion's attributes by name and by friendly name (the anchor accepts either), each with its values. */
export function assertionAttributes(profile: Profile): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const assertion = (profile.getAssertion?.() as { Assertion?: { AttributeStatement?: { Attribute?: unknown[] }[] } } | undefined)?.Assertion;
  for (const statement of assertion?.AttributeStatement ?? []) {
    for (const a of (statement.Attribute ?? []) as { $?: { Name?: string; FriendlyName?: string }; AttributeValue?: unknown[] }[]) {
      const values = (a.AttributeValue ?? []).map((v) => (typeof v === 'string' ? v : String((v as { _?: unknown })._ ?? ''))).filter((v) => v !== '');
      for (const key of [a.$?.Name, a.$?.FriendlyName]) if (key) out.set(key, [...(out.get(key) ?? []), ...values]);
    }
  }
  return out;
}

/** `assertion_attribute_name` may be a template: `$__saml{givenName} $__saml{surname}`. */
function nameOf(template: string, attrs: Map<string, string[]>): string {
  if (!template.includes('$__saml{')) return attrs.get(template)?.[0] ?? '';
  return template.replace(/\$__saml\{([^}]*)\}/g, (_m, key: string) => attrs.get(key)?.[0] ?? '').trim();
}

/** The highest role the role attribute's values map to, by `role_values_*`. */
function mappedRole(s: AuthSamlConfig, values: readonly string[]): { role?: OrgRole; svcAdmin: boolean } {
  const has = (setting: string) => listSetting(setting).some((v) => values.includes(v));
  if (has(s.role_values_svc_admin)) return { role: 'Admin', svcAdmin: true };
  const role: OrgRole | undefined = has(s.role_values_admin) ? 'Admin' : has(s.role_values_editor) ? 'Editor' : has(s.role_values_viewer) ? 'Viewer' : has(s.role_values_none) ? 'None' : undefined;
  return { role, svcAdmin: false };
}

/** Why an assertion signs nobody in (the anchor's 403 wording). */
export class SamlIdentityError extends Error {}

/**
 * The identity of a validated assertion: login, email and name from their attributes (the login falls back to the
 * email, the email to a login that is an address), org roles from `assertion_attribute_role` + `role_values_*`
 * for the default org `defaultOrgId`, or per org from `assertion_attribute_org` + `org_mapping`
 * (`<org value|*>:<org id>[:<role>]`), and `allowed_organizations` checked.
 *
 * @throws SamlIdentityError when it names no login, or no allowed organization.
 */
export function samlIdentity(s: AuthSamlConfig, profile: Profile, defaultOrgId: number): SamlIdentity {
  const attrs = assertionAttributes(profile);
  const first = (key: string) => (key === '' ? '' : (attrs.get(key)?.[0] ?? '').trim());
  let email = first(s.assertion_attribute_email);
  const login = first(s.assertion_attribute_login) || email;
  if (email === '' && login.includes('@')) email = login;
  if (login === '') throw new SamlIdentityError('the assertion has no login or email attribute');
  const orgValues = s.assertion_attribute_org === '' ? [] : (attrs.get(s.assertion_attribute_org) ?? []);
  const allowed = listSetting(s.allowed_organizations);
  if (allowed.length > 0 && !allowed.some((o) => orgValues.includes(o))) throw new SamlIdentityError('User does not belong to an allowed organization');
  const { role, svcAdmin } = mappedRole(s, s.assertion_attribute_role === '' ? [] : (attrs.get(s.assertion_attribute_role) ?? []));
  const orgRoles = new Map<number, OrgRole>();
  for (const entry of listSetting(s.org_mapping)) {
    const [org, id, mapped] = entry.split(':');
    const orgId = Number(id);
    if (!org || !Number.isSafeInteger(orgId) || orgId < 1 || (org !== '*' && !orgValues.includes(org))) continue;
    const entryRole = (['None', 'Viewer', 'Editor', 'Admin'] as const).find((r) => r === mapped) ?? role;
    if (entryRole) orgRoles.set(orgId, entryRole);
  }
  if (orgRoles.size === 0 && role) orgRoles.set(defaultOrgId, role);
  return {
    login,
    email,
    name: nameOf(s.assertion_attribute_name, attrs) || login,
    orgRoles,
    ...(s.role_values_svc_admin !== '' ? { isSvcAdmin: svcAdmin } : {}),
    nameID: profile.nameID,
    ...(profile.nameIDFormat ? { nameIDFormat: profile.nameIDFormat } : {}),
    ...(profile.sessionIndex ? { sessionIndex: profile.sessionIndex } : {}),
  };
}
