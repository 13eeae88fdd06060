import type { Request, Response } from 'express';
import { dashboardKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { preferencesSubjectOf } from '../../pkg/preferences/effective';
import { defaultPreferences, type PreferencesOwner } from '../../pkg/preferences/preferences-directory';
import type { Registry, RequestContext } from '../../pkg/registry';
import { legacyIdOf } from '../dashboards/dashboards-conversions';
import { dashboardNotFound } from '../dashboards/dashboards-errors';
import { findByInternalId } from '../dashboards/dashboards-save';
import { teamOfPath } from '../teams/teams-routes';
import type { AdapterDeps } from '../shared';
import { parsePreferencesCommand, type PreferencesCommand, toPreferencesDTO } from './preferences-conversions';

/**
 * Preferences of the signed-in user, of the current org and of a team (spec §4.9; the anchor's team preferences), as
 * clients of the Preferences kind. A user's are its own; the org's are read by its members and changed by its
 * Admins; a team's are read by those who may read the team and changed by those who may change it (its team
 * Admins, org Admins). PUT replaces (omitted keys reset), PATCH changes the keys given.
 */

const system = (registry: Registry, orgId: number): RequestContext => ({ requester: SYSTEM, namespace: registry.namespaces.of(orgId), fieldManager: 'svc-identity' });

/** A dashboard of the org, whoever may read it (as the anchor: a preference may name any of the org's). */
async function dashboardOf(registry: Registry, orgId: number, uid: string): Promise<Resource | undefined> {
  try {
    return await registry.get(system(registry, orgId), dashboardKind, uid);
  } catch (err) {
    if (err instanceof StatusError && (err.code === 404 || err.code === 400)) return undefined;
    throw err;
  }
}

/** The home dashboard a command sets: its uid ('' clears), undefined when the command names none. */
async function homeOf(registry: Registry, orgId: number, cmd: PreferencesCommand): Promise<string | undefined> {
  if (cmd.homeDashboardUID !== undefined) {
    if (cmd.homeDashboardUID !== '' && !(await dashboardOf(registry, orgId, cmd.homeDashboardUID))) throw dashboardNotFound();
    return cmd.homeDashboardUID;
  }
  if (cmd.homeDashboardId === undefined) return undefined;
  if (cmd.homeDashboardId === 0) return '';
  const found = await findByInternalId(registry, system(registry, orgId), dashboardKind, cmd.homeDashboardId);
  if (!found) throw dashboardNotFound();
  return found.metadata.name;
}

/** Which preferences a request names, once its guard passed (`action`: what the team routes check themselves). */
export type PreferencesLevel = (req: Request, deps: AdapterDeps, action: 'teams:read' | 'teams:write') => Promise<PreferencesOwner>;

export const userLevel: PreferencesLevel = async (req) => ({ kind: 'user', uid: preferencesSubjectOf(req.user!).userUid! });
export const orgLevel: PreferencesLevel = async () => ({ kind: 'org' });
export const teamLevel: PreferencesLevel = async (req, deps, action) => ({ kind: 'team', uid: (await teamOfPath(deps.teams, req, action)).uid });

/** `GET` of a level. */
export const readPreferences = (level: PreferencesLevel) => async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
  const owner = await level(req, deps, 'teams:read');
  const orgId = req.user!.orgId;
  const spec = await deps.preferences.get(orgId, owner);
  const home = spec.homeDashboardUID ? await dashboardOf(deps.registry, orgId, spec.homeDashboardUID) : undefined;
  res.json(toPreferencesDTO(spec, home ? { uid: home.metadata.name, id: legacyIdOf(home) } : { uid: '', id: 0 }));
};

/** `PUT` (`put`) or `PATCH` of a level. */
export const writePreferences = (level: PreferencesLevel, mode: 'put' | 'patch') => async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
  const owner = await level(req, deps, 'teams:write');
  const orgId = req.user!.orgId;
  const cmd = parsePreferencesCommand(req.body);
  const home = await homeOf(deps.registry, orgId, cmd);
  const base = mode === 'put' ? defaultPreferences() : await deps.preferences.get(orgId, owner);
  const next = { ...base, ...cmd.changes, ...(home !== undefined && { homeDashboardUID: home }) };
  await deps.preferences.save({ identity: req.user!.identity, login: req.user!.login }, orgId, owner, next);
  // Spec §4.9: the message, as text/plain.
  res.type('text/plain').send(JSON.stringify({ message: 'Preferences updated' }));
};
