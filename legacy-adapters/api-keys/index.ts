import type { Request, Response } from 'express';
import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import { defineArea, guard } from '../shared';

/**
 * The deprecated API keys (`/api/auth/keys`), answered as the anchor answers them since its API keys became service
 * account tokens (pkg/api/apikey.go): this server never had API keys, so the list is empty, a delete finds nothing,
 * and a create is 410 Gone naming the service account routes that replace it.
 */
const tags = ['api_keys'];
const MOVED = 'this endpoint has been removed, please use POST /api/serviceaccounts and POST /api/serviceaccounts/{id}/tokens instead';

/** No key is ever stored: every org's list is empty (`includeExpired` changes nothing). */
function getApiKeys(_req: Request, res: Response): void {
  res.json([]);
}

/** The anchor parses the id as a 64-bit integer (400 `id is invalid`), then finds no key (404). */
function deleteApiKey(req: Request): never {
  if (!/^[+-]?[0-9]{1,18}$/.test(String(req.params.id ?? ''))) throw StatusError.badRequest('id is invalid');
  throw new StatusError(404, 'NotFound', 'Failed to delete API key');
}

function addApiKey(): never {
  throw new StatusError(410, 'Gone', MOVED);
}

export const apiKeysArea = defineArea({
  name: 'api-keys',
  routes: [
    {
      method: 'get', path: '/api/auth/keys', guard: guard.can('apikeys:read'), handler: getApiKeys,
      operationId: 'getAPIkeys', tags, deprecated: { replacedBy: 'GET /api/serviceaccounts/search and GET /api/serviceaccounts/{id}/tokens' },
      summary: 'The API keys of the current organization: always empty (API keys are service account tokens; use GET /api/serviceaccounts and GET /api/serviceaccounts/{id}/tokens).',
      params: [{ name: 'includeExpired', in: 'query', type: 'boolean', default: false, description: 'Show expired keys (there are none)' }],
      responses: { 200: { description: 'No keys.', schema: z.array(z.object({ id: z.number().int(), name: z.string(), role: z.string() })), name: 'ApiKeyDTO' }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/auth/keys', guard: guard.can('apikeys:create'), handler: addApiKey,
      operationId: 'addAPIkey', tags, deprecated: { replacedBy: 'POST /api/serviceaccounts and POST /api/serviceaccounts/{id}/tokens' },
      summary: 'Removed: answers 410 naming POST /api/serviceaccounts and POST /api/serviceaccounts/{id}/tokens, which replace it.',
      responses: { 401: {}, 403: {}, 410: { description: MOVED } },
    },
    {
      method: 'delete', path: '/api/auth/keys/:id', guard: guard.can('apikeys:delete'), handler: deleteApiKey,
      operationId: 'deleteAPIkey', tags, deprecated: { replacedBy: 'DELETE /api/serviceaccounts/{id}/tokens/{tokenId}' },
      summary: 'Delete an API key: there are none, so a numeric id is 404.',
      params: [{ name: 'id', in: 'path', type: 'integer', required: true }],
      responses: { 400: { description: 'id is invalid' }, 401: {}, 403: {}, 404: { description: 'Failed to delete API key' } },
    },
  ],
});
