import { type Request, type Response, Router } from 'express';
import { dashboardKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity-directory';
import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { preferencesSubjectOf } from '../../pkg/preferences/effective';
import { defaultPreferences, type PreferencesDirectory, type PreferencesOwner } from '../../pkg/preferences/preferences-directory';
import type { Registry, RequestContext } from '../../pkg/registry';
import { namespaceOf } from '../../pkg/server/namespaces';
import { legacyIdOf } from '../dashboards/dashboards-conversions';
import { dashboardNotFound } from '../dashboards/dashboards-errors';
import { findByInternalId } from '../dashboards/dashboards-save';
import { requireOrgAdmin } from '../orgs/orgs-routes';
import { teamOfPath } from '../teams/teams-routes';
import { requireUser } from '../users/users-routes';
import { parsePreferencesCommand, type PreferencesCommand, toPreferencesDTO } from './preferences-conversions';

export interface LegacyPreferencesDeps {
  /** The registry of dashboards: a home dashboard must be one of the org's. */
  registry: Registry;
  preferences: PreferencesDirectory;
}

/** Which preferences a path names, once the caller may read (`read`) or change (`write`) them. */
interface Level {
  path: string;
  read(req: Request): Promise<PreferencesOwner>;
  write(req: Request): Promise<PreferencesOwner>;
}

/**
 * Preferences of the signed-in user, of the current org and of a team (spec §4.9; the anchor's team preferences), as
 * clients of the Preferences kind. A user's are its own (users only: 403 for service accounts and anonymous
 * visitors); the org's are read by its members and changed by its Admins; a team's are read by those who may read
 * the team and changed by those who may change it (its team Admins, org Admins). PUT replaces (omitted keys reset),
 * PATCH changes the keys given.
 */
export function legacyPreferencesRouter(deps: LegacyPreferencesDeps): Router {
  const { registry, preferences } = deps;
  const router = Router();
  const system = (orgId: number): RequestContext => ({ requester: SYSTEM, namespace: namespaceOf(orgId), fieldManager: 'svc-identity' });

  /** A dashboard of the org, whoever may read it (as the anchor: a preference may name any of the org's). */
  async function dashboardOf(orgId: number, uid: string): Promise<Resource | undefined> {
    try {
      return await registry.get(system(orgId), dashboardKind, uid);
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 400)) return undefined;
      throw err;
    }
  }

  /** The home dashboard a command sets: its uid ('' clears), undefined when the command names none. */
  async function homeOf(orgId: number, cmd: PreferencesCommand): Promise<string | undefined> {
    if (cmd.homeDashboardUID !== undefined) {
      if (cmd.homeDashboardUID !== '' && !(await dashboardOf(orgId, cmd.homeDashboardUID))) throw dashboardNotFound();
      return cmd.homeDashboardUID;
    }
    if (cmd.homeDashboardId === undefined) return undefined;
    if (cmd.homeDashboardId === 0) return '';
    const found = await findByInternalId(registry, system(orgId), dashboardKind, cmd.homeDashboardId);
    if (!found) throw dashboardNotFound();
    return found.metadata.name;
  }

  async function read(req: Request, res: Response, owner: PreferencesOwner): Promise<void> {
    const orgId = req.user!.orgId;
    const spec = await preferences.get(orgId, owner);
    const home = spec.homeDashboardUID ? await dashboardOf(orgId, spec.homeDashboardUID) : undefined;
    res.json(toPreferencesDTO(spec, home ? { uid: home.metadata.name, id: legacyIdOf(home) } : { uid: '', id: 0 }));
  }

  async function write(req: Request, res: Response, owner: PreferencesOwner, mode: 'put' | 'patch'): Promise<void> {
    const orgId = req.user!.orgId;
    const cmd = parsePreferencesCommand(req.body);
    const home = await homeOf(orgId, cmd);
    const base = mode === 'put' ? defaultPreferences() : await preferences.get(orgId, owner);
    const next = { ...base, ...cmd.changes, ...(home !== undefined && { homeDashboardUID: home }) };
    await preferences.save({ identity: req.user!.identity, login: req.user!.login }, orgId, owner, next);
    // Spec §4.9: the message, as text/plain.
    res.type('text/plain').send(JSON.stringify({ message: 'Preferences updated' }));
  }

  const userLevel = async (req: Request): Promise<PreferencesOwner> => {
    requireUser(req);
    return { kind: 'user', uid: preferencesSubjectOf(req.user!).userUid! };
  };
  const levels: Level[] = [
    { path: '/api/user/preferences', read: userLevel, write: userLevel },
    {
      path: '/api/org/preferences',
      read: async () => ({ kind: 'org' }),
      write: async (req) => (requireOrgAdmin(req), { kind: 'org' }),
    },
    {
      path: '/api/teams/:teamId/preferences',
      read: async (req) => ({ kind: 'team', uid: (await teamOfPath(preferences.teams, req, 'teams:read')).uid }),
      write: async (req) => ({ kind: 'team', uid: (await teamOfPath(preferences.teams, req, 'teams:write')).uid }),
    },
  ];

  for (const level of levels) {
    router.get(level.path, async (req, res) => read(req, res, await level.read(req)));
    router.put(level.path, async (req, res) => write(req, res, await level.write(req), 'put'));
    router.patch(level.path, async (req, res) => write(req, res, await level.write(req), 'patch'));
  }
  return router;
}
