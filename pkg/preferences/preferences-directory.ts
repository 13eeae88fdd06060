import { preferencesKind } from '../../apis';
import { type PreferencesOwner, preferencesName, type PreferencesSpec, preferencesSpecSchema } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { type IdentityDirectory, SYSTEM } from '../auth/identity/identity-directory';
import type { TeamDirectory } from '../auth/identity/team-directory';
import { StatusError } from '../errors';
import { anyKind } from '../meta';
import type { Requester, RequestContext } from '../registry';

export { type PreferencesOwner, preferencesName, type PreferencesSpec } from '../../apis/preferences.svc.app/v1alpha1/preferences';

const PREFERENCES = anyKind(preferencesKind);

/** The system defaults: every key unset. */
export function defaultPreferences(): PreferencesSpec {
  return preferencesSpecSchema.parse({});
}

/**
 * Preferences of users, teams and organizations, stored as `preferences.svc.app/v1alpha1` Preferences objects in
 * each organization's namespace by the identity registry. An owner without stored preferences has the defaults. A
 * user's preferences in an org go when it leaves that org, a team's when the team is deleted (their kinds' cascades).
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
  ) {}

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
}
