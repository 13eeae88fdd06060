import type { PreferencesSpec } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { defaultPreferences, type PreferencesDirectory, type PreferencesOwner } from './preferences-directory';

/** Whose effective preferences: a user (by uid) of an org; anyone else (service account, anonymous) has none of its own. */
export interface PreferencesSubject {
  orgId: number;
  userUid?: string;
}

/**
 * The subject of a caller: its org, and its uid when it is a user (`user:<uid>`).
 *
 * @example
 *   preferencesSubjectOf({ identity: 'user:ana', orgId: 2 }); // { orgId: 2, userUid: 'ana' }
 */
export function preferencesSubjectOf(caller: { identity: string; orgId: number }): PreferencesSubject {
  const user = caller.identity.startsWith('user:');
  return user ? { orgId: caller.orgId, userUid: caller.identity.slice('user:'.length) } : { orgId: caller.orgId };
}

/** Whether a level sets `value`: a non-empty string, a number, an array, or an object with a key set. */
function isSet(key: string, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value) || typeof value !== 'object') return true;
  const inner = Object.entries(value);
  // Consents are empty objects: having one is what counts.
  return key === 'cookiePreferences' ? inner.length > 0 : inner.some(([k, v]) => isSet(k, v));
}

/** `over`'s keys that are set, on top of `under`. */
function overlay(under: PreferencesSpec, over: PreferencesSpec): PreferencesSpec {
  const out: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) if (isSet(key, value)) out[key] = value;
  return out as PreferencesSpec;
}

/**
 * The preferences that apply to a user: each key from the first level that sets it among the user's own, its
 * teams' (as the anchor: the team created last first), the organization's, else the default. The home dashboard
 * endpoint reads `homeDashboardUID` from here.
 *
 * @example
 *   const prefs = await effectivePreferences(directory, { orgId: 1, userUid: 'ana' });
 *   prefs.homeDashboardUID; // the user's, else a team's, else the org's, else ''
 */
export async function effectivePreferences(directory: PreferencesDirectory, subject: PreferencesSubject): Promise<PreferencesSpec> {
  const { orgId, userUid } = subject;
  const owners: PreferencesOwner[] = [{ kind: 'org' }];
  if (userUid !== undefined) {
    const memberships = await directory.teams.membershipsOf(orgId, userUid);
    for (const m of [...memberships].sort((a, b) => a.teamId - b.teamId)) owners.push({ kind: 'team', uid: m.teamUid });
    owners.push({ kind: 'user', uid: userUid });
  }
  let out = defaultPreferences();
  for (const owner of owners) out = overlay(out, await directory.get(orgId, owner));
  return out;
}
