import { z } from 'zod';
import { legacyCauseMessage, StatusError } from '../../pkg/errors';
import { byKind, defineArea, guard, type LegacyErrors, type LegacyParam } from '../shared';
import { createCorrelation, deleteCorrelation, getCorrelation, getCorrelations, getCorrelationsBySourceUID, updateCorrelation } from './correlations-routes';

const transformation = z.object({ type: z.enum(['regex', 'logfmt']), expression: z.string().optional(), field: z.string().optional(), mapValue: z.string().optional() });
const config = z.object({
  field: z.string().describe('Field used to attach the correlation link'),
  type: z.enum(['query', 'external']),
  target: z.record(z.string(), z.unknown()).describe('Target data query'),
  transformations: z.array(transformation).optional(),
});
const correlation = z.object({
  uid: z.string(),
  orgId: z.number().int(),
  sourceUID: z.string().describe('The data source the correlation originates from'),
  targetUID: z.string().describe('The data source it points to ("" for external)'),
  label: z.string(),
  description: z.string(),
  provisioned: z.boolean(),
  config,
});
const record = { schema: correlation, name: 'Correlation' };
const result = (message: string) => ({ description: message, schema: z.object({ message: z.literal(message), result: correlation }) });
const createCommand = z.object({ targetUID: z.string().optional().describe('Required for type query'), label: z.string().optional(), description: z.string().optional(), provisioned: z.boolean().optional(), config });
const updateCommand = z.object({ label: z.string().optional(), description: z.string().optional(), config: config.partial().optional() });
const sourceUID: LegacyParam = { name: 'sourceUID', in: 'path', type: 'string', required: true };
const correlationUID: LegacyParam = { name: 'correlationUID', in: 'path', type: 'string', required: true };
const notFound = { description: 'No such data source or correlation, or none to list.' };
const tags = ['correlations'];

/** The registry's errors on correlations and their data sources, in the anchor's words. */
const correlationErrors: LegacyErrors = {
  notFound: byKind({
    correlations: () => new StatusError(404, 'NotFound', 'Correlation not found'),
    datasources: () => new StatusError(404, 'NotFound', 'Data source not found'),
  }),
  // The registry's refusal of a reference to a data source that is not in the organization.
  badRequest: (err) => (err.details?.causes?.some((c) => c.reason === 'FieldValueNotFound') ? new StatusError(404, 'NotFound', 'Data source not found') : err),
  invalid: (err) => StatusError.badRequest(err.details?.causes?.[0] ? legacyCauseMessage(err.details.causes[0]) : 'bad request data'),
};

/**
 * /api/datasources/correlations and /api/datasources/uid/:sourceUID/correlations (correlations-routes.ts). Listed
 * before the data source area: `/api/datasources/correlations` is no data source id.
 */
export const correlationsArea = defineArea({
  name: 'correlations',
  errors: correlationErrors,
  routes: [
    {
      method: 'get', path: '/api/datasources/correlations', guard: guard.can('datasources:read'), handler: getCorrelations, operationId: 'getCorrelations', tags,
      summary: 'The correlations of the organization, one page.',
      params: [
        { name: 'limit', in: 'query', type: 'integer', default: 100, description: 'Correlations per page, at most 1000' },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'sourceUID', in: 'query', type: 'string', array: true, description: 'Only those from these data sources' },
      ],
      responses: { 200: { description: 'The correlations.', schema: z.array(correlation) }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/datasources/uid/:sourceUID/correlations', guard: guard.can('datasources:read', 'datasources:uid:{sourceUID}'), handler: getCorrelationsBySourceUID,
      operationId: 'getCorrelationsBySourceUID', tags, summary: 'The correlations from a data source.', params: [sourceUID],
      responses: { 200: { description: 'The correlations.', schema: z.array(correlation) }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'post', path: '/api/datasources/uid/:sourceUID/correlations', guard: guard.can('datasources:write', 'datasources:uid:{sourceUID}'), handler: createCorrelation,
      operationId: 'createCorrelation', tags, summary: 'Add a correlation from a data source.', params: [sourceUID],
      body: { schema: createCommand, name: 'CreateCorrelationCommand' },
      responses: { 200: result('Correlation created'), 400: {}, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/datasources/uid/:sourceUID/correlations/:correlationUID', guard: guard.can('datasources:read', 'datasources:uid:{sourceUID}'), handler: getCorrelation,
      operationId: 'getCorrelation', tags, summary: 'Get a correlation.', params: [sourceUID, correlationUID],
      responses: { 200: record, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'patch', path: '/api/datasources/uid/:sourceUID/correlations/:correlationUID', guard: guard.can('datasources:write', 'datasources:uid:{sourceUID}'), handler: updateCorrelation,
      operationId: 'updateCorrelation', tags, summary: 'Change a correlation\'s label, description or config.', params: [sourceUID, correlationUID],
      body: { schema: updateCommand, name: 'UpdateCorrelationCommand' },
      responses: { 200: result('Correlation updated'), 400: {}, 401: {}, 403: { description: 'A provisioned correlation, or a missing permission.' }, 404: notFound },
    },
    {
      method: 'delete', path: '/api/datasources/uid/:uid/correlations/:correlationUID', guard: guard.can('datasources:write', 'datasources:uid:{uid}'), handler: deleteCorrelation,
      operationId: 'deleteCorrelation', tags, summary: 'Delete a correlation.', params: [{ name: 'uid', in: 'path', type: 'string', required: true }, correlationUID],
      responses: { 200: { description: 'Deleted.', schema: z.object({ message: z.literal('Correlation deleted') }) }, 401: {}, 403: { description: 'A provisioned correlation, or a missing permission.' }, 404: notFound },
    },
  ],
});
