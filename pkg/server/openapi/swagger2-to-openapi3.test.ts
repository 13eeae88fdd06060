import SwaggerParser from '@apidevtools/swagger-parser';
import { swagger2ToOpenapi3 } from './swagger2-to-openapi3';

const v2 = {
  swagger: '2.0',
  info: { title: 't', version: '1' },
  basePath: '/api',
  consumes: ['application/json'],
  produces: ['application/json'],
  securityDefinitions: { basic: { type: 'basic' }, key: { type: 'apiKey', name: 'X-Key', in: 'header' } },
  security: [{ basic: [] }],
  'x-top': 1,
  paths: {
    '/things/{uid}': {
      parameters: [{ name: 'uid', in: 'path', required: true, type: 'string' }],
      get: {
        operationId: 'getThing',
        parameters: [
          { name: 'tag', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
          { name: 'ids', in: 'query', type: 'array', items: { type: 'integer' } },
          { name: 'old', in: 'query', type: 'string', 'x-deprecated': true },
        ],
        responses: {
          200: { description: 'ok', schema: { $ref: '#/definitions/Thing' }, headers: { 'X-Rate': { type: 'integer', description: 'rate' } } },
          404: { description: 'nope' },
        },
      },
      post: {
        operationId: 'postThing',
        consumes: ['application/json', 'text/plain'],
        parameters: [{ name: 'body', in: 'body', required: true, description: 'the thing', schema: { $ref: '#/definitions/Thing' } }],
        responses: { 200: { description: 'ok' } },
        deprecated: true,
      },
      put: {
        operationId: 'uploadThing',
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'file', in: 'formData', type: 'file', required: true },
          { name: 'note', in: 'formData', type: 'string' },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
  definitions: {
    Thing: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', 'x-nullable': true }, parts: { type: 'array', items: { $ref: '#/definitions/Part' } }, required: { type: 'boolean' } },
    },
    Part: { type: 'object', additionalProperties: { $ref: '#/definitions/Thing' } },
  },
};

test('the converted document is valid OpenAPI 3, with v2 constructs mapped', async () => {
  const v3 = swagger2ToOpenapi3(structuredClone(v2)) as any;
  await SwaggerParser.validate(structuredClone(v3));
  expect(v3.openapi).toBe('3.0.3');
  expect(v3.servers).toEqual([{ url: '/api' }]);
  expect(v3['x-top']).toBe(1);
  expect(v3.components.securitySchemes).toEqual({ basic: { type: 'http', scheme: 'basic' }, key: { type: 'apiKey', name: 'X-Key', in: 'header' } });
  expect(v3.components.schemas.Thing.properties).toEqual({
    name: { type: 'string', nullable: true },
    parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
    required: { type: 'boolean' },
  });
  expect(v3.components.schemas.Part.additionalProperties).toEqual({ $ref: '#/components/schemas/Thing' });
  const get = v3.paths['/things/{uid}'].get;
  expect(v3.paths['/things/{uid}'].parameters).toEqual([{ name: 'uid', in: 'path', required: true, schema: { type: 'string' } }]);
  expect(get.parameters).toEqual([
    { name: 'tag', in: 'query', style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } },
    { name: 'ids', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
    { name: 'old', in: 'query', deprecated: true, schema: { type: 'string' } },
  ]);
  expect(get.responses[200]).toEqual({
    description: 'ok',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
    headers: { 'X-Rate': { description: 'rate', schema: { type: 'integer' } } },
  });
  expect(get.responses[404]).toEqual({ description: 'nope' });
  const post = v3.paths['/things/{uid}'].post;
  expect(post.requestBody).toEqual({
    description: 'the thing',
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } }, 'text/plain': { schema: { $ref: '#/components/schemas/Thing' } } },
  });
  expect(post.deprecated).toBe(true);
  expect(v3.paths['/things/{uid}'].put.requestBody).toEqual({
    content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } }, required: ['file'] } } },
  });
});

test('a host makes absolute server URLs', () => {
  expect(swagger2ToOpenapi3({ ...v2, host: 'example.com', schemes: ['https', 'http'] }).servers).toEqual([{ url: 'https://example.com/api' }, { url: 'http://example.com/api' }]);
});

test('only Swagger 2.0 is taken', () => {
  expect(() => swagger2ToOpenapi3({ openapi: '3.0.0' })).toThrow('not a Swagger 2.0 document');
});
