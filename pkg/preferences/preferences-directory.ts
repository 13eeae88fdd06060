import { preferencesKind } from '../../apis';
import { type PreferencesSpec, preferencesSpecSchema } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { type IdentityDirectory, ignoreNotFound, labelKey, SYSTEM } from '../auth/identity/identity-directory';
import type { StoredTeam, TeamDirectory } from '../auth/identity/team-directory';
import { StatusError } from '../errors';
import { anyKind } from '../meta';
import type { Requester, RequestContext } from '../registry';
import { nameProblem } from '../registry/names';

export type { PreferencesSpec } from '../../apis/preferences.svc.app/v1alpha1/preferences';

/** Whose preferences, within one organization: a user's, a team's or the organization's own. */
export type PreferencesOwner = { kind: 'user'; uid: string } | { kind: 'team'; uid: string } | { kind: 'org' };

const PREFERENCES = anyKind(preferencesKind);

/** The system defaults: every key unset. */
export function defaultPreferences(): PreferencesSpec {
  return preferencesSpecSchema.parse({});
}

/**
 * The object name of an owner's preferences: `org`, `user-<uid>`, `team-<uid>`; a uid that cannot be part of a
 * name (too long, other characters) is replaced by its digest.
 *
 * @example
 *   preferencesName({ kind: 'user', uid: 'admin' }); // 'user-admin'
 */
export function preferencesName(owner: PreferencesOwner): string {
  if (owner.kind === 'org') return 'org';
  const name = `${owner.kind}-${owner.uid}`;
  return nameProblem(name) ? `${owner.kind}-${labelKey(owner.uid).slice(0, 32)}` : name;
}

/**
 * Preferences of users, teams and organizations, stored as `preferences.svc.app/v1alpha1` Preferences objects in
 * each organization's namespace by the identity registry. An owner without stored preferences has the defaults. A
 * user's preferences in an org go when it leaves that org, a team's when the team is deleted.
 *
 * @example
 *   const prefs = new PreferencesDirectory(users, teams);
 *   await prefs.save(by, 1, { kind: 'org' }, { ...defaultPreferences(), theme: 'dark' });
 *   (await prefs.get(1, { kind: 'org' })).theme; // 'dark'
 */
export class PreferencesDirectory {
  constructor(
    private readonly users: IdentityDirectory,
    readonly teams: TeamDirectory,
  ) {
    users.onMemberRemoved(async (by, orgId, user) => {
      if (user.uid) await this.remove(by, orgId, { kind: 'user', uid: user.uid });
    });
    teams.onTeamDeleted((by, team: StoredTeam) => this.remove(by, team.orgId, { kind: 'team', uid: team.uid }));
  }

  private ctx(by: Requester, orgId: number): RequestContext {
    return { requester: by, namespace: this.users.registry.namespaces.of(orgId), fieldManager: 'svc-identity' };
  }

  /** The owner's stored preferences, else the defaults. */
  async get(orgId: number, owner: PreferencesOwner): Promise<PreferencesSpec> {
    try {
      const obj = await this.users.registry.get(this.ctx(SYSTEM, orgId), PREFERENCES, preferencesName(owner));
      return preferencesSpecSchema.parse(obj.spec);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return defaultPreferences();
      throw err;
    }
  }

  /** Stores the owner's preferences whole (creating them on first save). */
  async save(by: Requester, orgId: number, owner: PreferencesOwner, spec: PreferencesSpec): Promise<void> {
    const ctx = this.ctx(by, orgId);
    const name = preferencesName(owner);
    await this.users.registry.upsert(ctx, PREFERENCES, name, (current) => ({ ...(current ?? { metadata: { name } }), spec }));
  }

  /** Forgets the owner's preferences (nothing to do when it has none). */
  async remove(by: Requester, orgId: number, owner: PreferencesOwner): Promise<void> {
    await this.users.registry.delete(this.ctx(by, orgId), PREFERENCES, preferencesName(owner)).catch(ignoreNotFound);
  }
}
