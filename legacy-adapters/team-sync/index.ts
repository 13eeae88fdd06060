import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import { addTeamGroup, getTeamGroups, removeTeamGroup, searchTeamGroups } from './team-sync-routes';

const tags = ['sync_team_groups'];
const message = z.object({ message: z.string() });
const teamGroup = z.object({ orgId: z.number().int(), teamId: z.number().int(), groupId: z.string() });
const teamId = { name: 'teamId', in: 'path', type: 'integer', required: true, description: "The team's id (or uid)." } as const;
/** Team sync is the enterprise edition's (spec §1, §4.10). */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const enterpriseOnly = 'Enterprise edition only: 404 in the others.';
/** The team is found first (400 for a bad id), the action checked on it, then 404 when there is none. */
const team = 'the team may be named by its uid: its id is found first, then the action is checked on it (403 before 404)';

/** Team sync (spec §4.10): external groups mapped to a team, the TeamGroup kind (deleted with its team). */
export const teamSyncArea = defineArea({
  name: 'team-sync',
  routes: [
    {
      method: 'get', path: '/api/teams/:teamId/groups/search', guard: guard.inHandler(guard.can('teams.permissions:read', 'teams:id:{teamId}'), team), servedIn: enterprise, handler: searchTeamGroups,
      operationId: 'searchTeamGroups', tags, summary: 'Search the external groups of a team: `name` matches a group id exactly, `query` a part of it (any case); one of them is required.',
      description: enterpriseOnly, params: [teamId, { name: 'name', in: 'query', type: 'string' }, { name: 'query', in: 'query', type: 'string' }, { name: 'page', in: 'query', type: 'integer', default: 1 }, { name: 'perpage', in: 'query', type: 'integer', default: 1000 }],
      responses: { 200: { description: 'One page of the matching groups.', schema: z.array(z.object({ totalCount: z.number().int(), teamGroups: z.array(teamGroup), page: z.number().int(), perPage: z.number().int() })) }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/teams/:teamId/groups', guard: guard.inHandler(guard.can('teams.permissions:read', 'teams:id:{teamId}'), team), servedIn: enterprise, handler: getTeamGroups,
      operationId: 'getTeamGroupsApi', tags, summary: 'The external groups mapped to a team.', description: enterpriseOnly, params: [teamId],
      responses: { 200: { description: 'The groups.', schema: z.array(teamGroup), name: 'TeamGroupDTO' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/teams/:teamId/groups', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), servedIn: enterprise, handler: addTeamGroup,
      operationId: 'addTeamGroupApi', tags, summary: 'Map an external group to a team.', description: `${enterpriseOnly} 400 "Group is already added to this team" for a group mapped already.`, params: [teamId],
      body: { schema: z.object({ groupId: z.string() }), name: 'TeamGroupMapping' },
      responses: { 200: { description: 'Group added to Team.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'delete', path: '/api/teams/:teamId/groups', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), servedIn: enterprise, handler: removeTeamGroup,
      operationId: 'removeTeamGroupApiQuery', tags, summary: 'Remove an external group from a team.', description: `${enterpriseOnly} 404 "Group not found" for a group not mapped.`,
      params: [teamId, { name: 'groupId', in: 'query', type: 'string', required: true, description: 'The external group id, URL-encoded.' }],
      responses: { 200: { description: 'Team Group removed.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ],
});
