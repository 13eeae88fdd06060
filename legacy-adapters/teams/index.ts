import { z } from 'zod';
import { defineArea, guard } from '../shared';
import {
  addTeamMember, createTeam, deleteTeamByID, getTeamByID, getTeamMembers, removeTeamMember, searchTeams, setTeamMemberships, updateTeam, updateTeamMember,
} from './teams-routes';

const message = z.object({ message: z.string() });
const teamDto = z.object({
  id: z.number().int(),
  uid: z.string(),
  orgId: z.number().int(),
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string(),
  memberCount: z.number().int(),
  permission: z.number().int().describe("the caller's permission in the team: 0 Member, 4 Admin"),
  accessControl: z.record(z.string(), z.boolean()).optional().describe('with ?accesscontrol=true: the team actions the caller holds on it'),
});
const teamMemberDto = z.object({
  orgId: z.number().int(),
  teamId: z.number().int(),
  teamUID: z.string(),
  userId: z.number().int(),
  auth_module: z.string(),
  email: z.string(),
  name: z.string(),
  login: z.string(),
  avatarUrl: z.string(),
  labels: z.array(z.string()),
  permission: z.number().int().describe('0 Member, 4 Admin'),
});
const teamCommand = z.object({ name: z.string(), email: z.string().optional() });
const teamId = { name: 'teamId', in: 'path', type: 'integer', required: true } as const;
const userId = { name: 'userId', in: 'path', type: 'integer', required: true } as const;
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const tags = ['teams'];
/** Why the team routes check their action themselves. */
const team = 'the team may be named by its uid: its id is found first, then the action is checked on it (403 before 404)';
const accesscontrol = { name: 'accesscontrol', in: 'query', type: 'boolean', description: 'add accessControl: the team actions the caller holds' } as const;

/** /api/teams (legacy-adapters/teams/teams-routes.ts). */
export const teamsArea = defineArea({
  name: 'teams',
  routes: [
    {
      method: 'post', path: '/api/teams', guard: guard.can('teams:create'), handler: createTeam, operationId: 'createTeam', tags, summary: 'Add a team to the current organization.',
      description: 'Needs `teams:create` (org Admin). The creating user becomes the team\'s Admin.',
      body: { schema: teamCommand, name: 'CreateTeamCommand' },
      responses: {
        200: { description: 'Created.', schema: z.object({ message: z.string(), teamId: z.number().int(), uid: z.string() }), name: 'CreateTeamResponse' },
        400: {}, 401: {}, 403: {}, 409: { description: 'Team name taken.' },
      },
    },
    {
      method: 'get', path: '/api/teams/search', guard: guard.can('teams:read'), handler: searchTeams, operationId: 'searchTeams', tags, summary: 'Search the teams the caller may read.',
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'part of the name, any case' },
        { name: 'name', in: 'query', type: 'string', description: 'the exact name' },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'perpage', in: 'query', type: 'integer', default: 1000 },
        accesscontrol,
      ],
      responses: {
        200: { description: 'One page of teams.', schema: z.object({ totalCount: z.number().int(), teams: z.array(teamDto), page: z.number().int(), perPage: z.number().int() }), name: 'SearchTeamQueryResult' },
        401: {}, 403: {},
      },
    },
    {
      method: 'get', path: '/api/teams/:teamId', guard: guard.inHandler(guard.can('teams:read', 'teams:id:{teamId}'), team), handler: getTeamByID, operationId: 'getTeamByID', tags, summary: 'Get a team.', params: [teamId, accesscontrol],
      responses: { 200: { description: 'The team.', schema: teamDto, name: 'TeamDTO' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/teams/:teamId', guard: guard.inHandler(guard.can('teams:write', 'teams:id:{teamId}'), team), handler: updateTeam, operationId: 'updateTeam', tags, summary: 'Change a team\'s name or email.', params: [teamId],
      body: { schema: teamCommand.partial(), name: 'UpdateTeamCommand' },
      responses: { 200: ok('Team updated.'), 400: { description: 'Bad body, or Team name taken.' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'delete', path: '/api/teams/:teamId', guard: guard.inHandler(guard.can('teams:delete', 'teams:id:{teamId}'), team), handler: deleteTeamByID, operationId: 'deleteTeamByID', tags, summary: 'Delete a team and its memberships.', params: [teamId],
      responses: { 200: ok('Team deleted.'), 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/teams/:teamId/members', guard: guard.inHandler(guard.can('teams.permissions:read', 'teams:id:{teamId}'), team), handler: getTeamMembers, operationId: 'getTeamMembers', tags, summary: 'List a team\'s members.', params: [teamId],
      responses: { 200: { description: 'The members.', schema: z.array(teamMemberDto) }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/teams/:teamId/members', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), handler: addTeamMember, operationId: 'addTeamMember', tags, summary: 'Add a user of the organization to a team.', params: [teamId],
      body: { schema: z.object({ userId: z.number().int() }), name: 'AddTeamMemberCommand' },
      responses: { 200: ok('Member added to Team.'), 400: { description: 'Bad body, or already a member.' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/teams/:teamId/members', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), handler: setTeamMemberships, operationId: 'setTeamMemberships', tags, summary: 'Make these users (by email) exactly the team\'s members and admins.', params: [teamId],
      body: { schema: z.object({ members: z.array(z.string()).optional(), admins: z.array(z.string()).optional() }), name: 'SetTeamMembershipsCommand' },
      responses: { 200: ok('Team memberships have been updated.'), 400: {}, 401: {}, 403: {}, 404: { description: 'Team or user not found.' } },
    },
    {
      method: 'put', path: '/api/teams/:teamId/members/:userId', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), handler: updateTeamMember, operationId: 'updateTeamMember', tags, summary: 'Change a member\'s team permission.', params: [teamId, userId],
      body: { schema: z.object({ permission: z.number().int().describe('0 Member, 4 Admin') }), name: 'UpdateTeamMemberCommand' },
      responses: { 200: ok('Team member updated.'), 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'delete', path: '/api/teams/:teamId/members/:userId', guard: guard.inHandler(guard.can('teams.permissions:write', 'teams:id:{teamId}'), team), handler: removeTeamMember, operationId: 'removeTeamMember', tags, summary: 'Remove a member from a team.', params: [teamId, userId],
      responses: { 200: ok('Team Member removed.'), 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ],
});
