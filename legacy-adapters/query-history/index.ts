import { z } from 'zod';
import { defineArea, guard, type LegacyParam } from '../shared';
import { commentBody, createBody, createQuery, deleteQuery, patchQueryComment, searchQueries, starQuery, unstarQuery } from './query-history-routes';

const tags = ['query_history'];
const entry = z.object({
  uid: z.string(), datasourceUid: z.string(), createdBy: z.number().int(), createdAt: z.number().int(), comment: z.string(), queries: z.unknown(), starred: z.boolean(),
});
const result = { description: 'The entry.', schema: z.object({ result: entry }), name: 'QueryHistoryResponse' };
const uidParam: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true, description: "The entry's uid." };
const notFound = { description: 'Query in query history not found (or not the caller\'s)' };
/** Every route is the caller's own history: any signed-in user or service account, never an anonymous visitor (who has no history of its own). */
const own = guard.notAnonymous;

/** Explore's query history, the QueryHistory kind: each caller reads and changes only their own entries. */
export const queryHistoryArea = defineArea({
  name: 'query-history',
  routes: [
    {
      method: 'post', path: '/api/query-history', guard: own, handler: createQuery,
      operationId: 'createQuery', tags, summary: 'Add a query to the caller\'s query history.',
      body: { name: 'CreateQueryInQueryHistoryCommand', schema: createBody },
      responses: { 200: result, 400: { description: 'bad request data' }, 401: {} },
    },
    {
      method: 'get', path: '/api/query-history', guard: own, handler: searchQueries,
      operationId: 'searchQueries', tags,
      summary: 'Search the caller\'s query history: newest first (sort=time-asc: oldest), `limit` per page (default 100), `page` from 1.',
      description: 'searchString matches the queries\' JSON or the comment in any case; from and to (epoch milliseconds or date math) bound the time the query was added.',
      params: [
        { name: 'datasourceUid', in: 'query', type: 'string', array: true, description: 'Any of these data sources (repeat the parameter); none: every one' },
        { name: 'searchString', in: 'query', type: 'string' },
        { name: 'onlyStarred', in: 'query', type: 'boolean', default: false },
        { name: 'sort', in: 'query', type: 'string', enum: ['time-desc', 'time-asc'], default: 'time-desc' },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'limit', in: 'query', type: 'integer', default: 100 },
        { name: 'from', in: 'query', type: 'string' },
        { name: 'to', in: 'query', type: 'string' },
      ],
      responses: {
        200: { description: 'One page and the count of every match.', name: 'QueryHistorySearchResponse', schema: z.object({ result: z.object({ totalCount: z.number().int(), queryHistory: z.array(entry), page: z.number().int(), perPage: z.number().int() }) }) },
        400: { description: 'Invalid time range' }, 401: {},
      },
    },
    {
      method: 'post', path: '/api/query-history/star/:uid', guard: own, handler: starQuery,
      operationId: 'starQuery', tags, summary: 'Star one of the caller\'s queries.', params: [uidParam],
      responses: { 200: result, 400: { description: 'Failed to star query in query history (already starred)' }, 401: {}, 404: notFound },
    },
    {
      method: 'delete', path: '/api/query-history/star/:uid', guard: own, handler: unstarQuery,
      operationId: 'unstarQuery', tags, summary: 'Remove the star of one of the caller\'s queries.', params: [uidParam],
      responses: { 200: result, 400: { description: 'Failed to unstar query in query history (not starred)' }, 401: {}, 404: notFound },
    },
    {
      method: 'delete', path: '/api/query-history/:uid', guard: own, handler: deleteQuery,
      operationId: 'deleteQuery', tags, summary: 'Delete one of the caller\'s queries.', params: [uidParam],
      responses: { 200: { description: 'Query deleted; `id` is how many entries the delete removed (1), as the anchor answers.', schema: z.object({ message: z.string(), id: z.number().int() }) }, 401: {}, 404: notFound },
    },
    {
      method: 'patch', path: '/api/query-history/:uid', guard: own, handler: patchQueryComment,
      operationId: 'patchQueryComment', tags, summary: 'Set the comment of one of the caller\'s queries.', params: [uidParam],
      body: { name: 'PatchQueryCommentInQueryHistoryCommand', schema: commentBody },
      responses: { 200: result, 400: { description: 'bad request data' }, 401: {}, 404: notFound },
    },
  ],
});
