import SwaggerParser from '@apidevtools/swagger-parser';
import { z } from 'zod';
import { legacyDocuments } from './legacy-openapi-router';
import type { LegacyRouteDoc } from './legacy-routes';
import { legacySwagger, swaggerPath } from './legacy-swagger';

const dto = z.object({
  uid: z.string(),
  title: z.string().nullish(),
  refresh: z.union([z.string(), z.literal(false)]).optional(),
  kind: z.union([z.literal('a'), z.literal('b')]),
  tags: z.array(z.string()),
  extra: z.record(z.string(), z.unknown()),
});

const routes: LegacyRouteDoc[] = [
  {
    method: 'get',
    path: '/api/things/uid/:uid',
    operationId: 'getThingByUid',
    summary: 'Get a thing.',
    tags: ['things'],
    params: [{ name: 'tag', in: 'query', type: 'string', array: true, description: 'tags' }],
    responses: { 200: { schema: dto, name: 'ThingDTO' }, 404: {} },
  },
  {
    method: 'post',
    path: '/api/things',
    operationId: 'createThing',
    summary: 'Create a thing.',
    tags: ['things'],
    body: { schema: dto.omit({ uid: true }), name: 'CreateThingCommand' },
    responses: { 200: { schema: dto, name: 'ThingDTO' }, 412: { description: 'version-mismatch' } },
  },
  {
    method: 'get',
    path: '/api/things/:id',
    operationId: 'getThingById',
    summary: 'Get a thing by numeric id.',
    tags: ['things'],
    params: [{ name: 'id', in: 'path', type: 'integer' }],
    deprecated: { replacedBy: 'GET /api/things/uid/{uid}' },
    responses: { 200: { schema: dto, name: 'ThingDTO' } },
  },
];

test('v2 from route descriptions: valid Swagger 2.0; v3 generated from it: valid OpenAPI 3.0', async () => {
  const { v2, v3 } = legacyDocuments({ routes, version: '1.2.3' });
  await SwaggerParser.validate(structuredClone(v2) as never);
  await SwaggerParser.validate(structuredClone(v3) as never);
  expect(v2.basePath).toBe('/api');
  expect(Object.keys(v2.paths as object)).toEqual(['/things', '/things/{id}', '/things/uid/{uid}']);
  expect((v3.servers as unknown[])[0]).toEqual({ url: '/api' });
});

test('operations: derived path parameters, 401 on authenticated routes, the {message} error model, deprecation', () => {
  const v2 = legacySwagger({ routes, version: '1' }) as any;
  const get = v2.paths['/things/uid/{uid}'].get;
  expect(get.parameters).toEqual([
    { name: 'uid', in: 'path', required: true, type: 'string' },
    { name: 'tag', in: 'query', description: 'tags', required: false, type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
  ]);
  expect(Object.keys(get.responses)).toEqual(['200', '401', '404']);
  expect(get.responses[404]).toEqual({ description: 'Not found.', schema: { $ref: '#/definitions/ErrorResponseBody' } });
  expect(get.security).toBeUndefined();
  const byId = v2.paths['/things/{id}'].get;
  expect(byId.deprecated).toBe(true);
  expect(byId.description).toBe('Deprecated: use GET /api/things/uid/{uid} instead.');
  expect(byId.parameters[0]).toEqual({ name: 'id', in: 'path', required: true, type: 'integer' });
  const post = v2.paths['/things'].post;
  expect(post.parameters).toEqual([{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CreateThingCommand' } }]);
});

test('models: nullable as x-nullable, unions narrowed or untyped, records as additionalProperties', () => {
  const thing = (legacySwagger({ routes, version: '1' }) as any).definitions.ThingDTO;
  expect(thing.properties).toEqual({
    uid: { type: 'string' },
    title: { type: 'string', 'x-nullable': true },
    refresh: {},
    kind: { type: 'string', enum: ['a', 'b'] },
    tags: { type: 'array', items: { type: 'string' } },
    extra: { type: 'object', additionalProperties: {} },
  });
  expect(thing.required).toEqual(['uid', 'kind', 'tags', 'extra']);
});

test('the health route is described and needs no credentials', async () => {
  const { v2, v3 } = legacyDocuments({ version: '0.1.0' });
  await SwaggerParser.validate(structuredClone(v3) as never);
  const health = (v2 as any).paths['/health'].get;
  expect(health.security).toEqual([]);
  expect(Object.keys(health.responses)).toEqual(['200', '503']);
  expect((v3 as any).paths['/health'].get.responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HealthResponse' });
});

test('descriptions that cannot be right are refused when the document is built', () => {
  const base = routes[0];
  expect(() => legacySwagger({ routes: [base, { ...base, operationId: 'other' }], version: '1' })).toThrow('described twice');
  expect(() => legacySwagger({ routes: [base, { ...routes[1], operationId: base.operationId }], version: '1' })).toThrow('operationId getThingByUid');
  expect(() => legacySwagger({ routes: [{ ...base, params: [{ name: 'nope', in: 'path', type: 'string' }] }], version: '1' })).toThrow('path parameter nope');
  expect(() => legacySwagger({ routes: [{ ...base, responses: { 200: { schema: z.object({ a: z.string() }), name: 'ThingDTO' } } }, routes[1]], version: '1' })).toThrow('named ThingDTO');
  expect(() => swaggerPath('/apis/x')).toThrow('not under /api');
});

test('a wildcard is one path parameter standing for the rest of the path', () => {
  expect(swaggerPath('/api/datasources/proxy/uid/:uid{/*route}')).toBe('/datasources/proxy/uid/{uid}/{route}');
  expect(swaggerPath('/api/files/*rest')).toBe('/files/{rest}');
  const doc = legacySwagger({ routes: [{ ...routes[0], path: '/api/things/:uid{/*route}', operationId: 'proxyThing' }], version: '1' }) as any;
  const params = (doc.paths['/things/{uid}/{route}'].get.parameters as { in: string }[]).filter((p) => p.in === 'path');
  expect(params).toEqual([
    { name: 'uid', in: 'path', required: true, type: 'string' },
    { name: 'route', in: 'path', required: true, type: 'string' },
  ]);
});

test('the validator does reject what Swagger 2.0 cannot say', async () => {
  const v2 = legacySwagger({ routes, version: '1' }) as any;
  v2.definitions.ThingDTO.properties.refresh = { anyOf: [{ type: 'string' }, { type: 'boolean' }] };
  await expect(SwaggerParser.validate(v2)).rejects.toThrow();
});
