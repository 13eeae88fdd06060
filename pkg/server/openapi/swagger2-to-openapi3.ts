import type { JsonSchema } from './structural-schema';

/**
 * Swagger 2.0 → OpenAPI 3.0.3, for the documents `legacySwagger` writes (spec §9.4: v3 is generated from v2).
 * It covers what Swagger 2.0 can say about a JSON API: basePath → servers, definitions → components.schemas
 * ($refs rewritten), body parameters → requestBody, other parameters' types → schema (collectionFormat → style),
 * response schemas → content per `produces`, `x-nullable` → `nullable`, basic and apiKey security schemes.
 * A library (swagger2openapi) would cover more of Swagger 2.0 than this server writes, with a dozen dependencies.
 *
 * @example
 *   swagger2ToOpenapi3({ swagger: '2.0', basePath: '/api', paths: { '/health': { get: {...} } }, ... }).servers
 *   // [{ url: '/api' }]
 */

const PARAM_SCHEMA_KEYS = ['type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf'];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v2 schema as a v3 schema: refs into components, `x-nullable` as `nullable`, `file` as binary. */
export function convertSchema(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(/^#\/definitions\//, '#/components/schemas/');
    else if (k === 'x-nullable') out.nullable = v;
    else if (k === 'type' && v === 'file') Object.assign(out, { type: 'string', format: 'binary' });
    else if (k === 'properties' && isObject(v)) out.properties = mapValues(v, convertSchema);
    else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isObject(v)) out[k] = convertSchema(v);
    else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) out[k] = v.map(convertSchema);
    else out[k] = v;
  }
  return out;
}

function mapValues(o: JsonSchema, f: (v: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

function convertParameter(p: JsonSchema): JsonSchema {
  const schema: JsonSchema = {};
  for (const k of PARAM_SCHEMA_KEYS) if (k in p) schema[k] = k === 'items' ? convertSchema(p[k]) : p[k];
  const out: JsonSchema = { name: p.name, in: p.in };
  if (p.description !== undefined) out.description = p.description;
  if (p.required !== undefined) out.required = p.required;
  if (p['x-deprecated'] === true) out.deprecated = true;
  if (p.type === 'array') {
    const format = p.collectionFormat ?? 'csv';
    if (format === 'multi') Object.assign(out, { style: 'form', explode: true });
    else if (format === 'csv') Object.assign(out, p.in === 'query' ? { style: 'form', explode: false } : { style: 'simple' });
    else if (format === 'ssv') out.style = 'spaceDelimited';
    else if (format === 'pipes') out.style = 'pipeDelimited';
  }
  out.schema = schema;
  for (const [k, v] of Object.entries(p)) if (k.startsWith('x-') && k !== 'x-deprecated') out[k] = v;
  return out;
}

function convertOperation(op: JsonSchema, consumes: string[], produces: string[]): JsonSchema {
  const out: JsonSchema = {};
  const opConsumes = (op.consumes as string[] | undefined) ?? consumes;
  const opProduces = (op.produces as string[] | undefined) ?? produces;
  const params = (op.parameters as JsonSchema[] | undefined) ?? [];
  for (const [k, v] of Object.entries(op)) {
    if (k === 'parameters' || k === 'responses' || k === 'consumes' || k === 'produces' || k === 'schemes') continue;
    out[k] = v;
  }
  const plain = params.filter((p) => p.in !== 'body' && p.in !== 'formData').map(convertParameter);
  if (plain.length) out.parameters = plain;
  const body = params.find((p) => p.in === 'body');
  const form = params.filter((p) => p.in === 'formData');
  if (body) {
    out.requestBody = {
      ...(body.description ? { description: body.description } : {}),
      required: body.required === true,
      content: Object.fromEntries(opConsumes.map((t) => [t, { schema: convertSchema(body.schema) }])),
    };
  } else if (form.length) {
    const type = form.some((p) => p.type === 'file') || opConsumes.includes('multipart/form-data') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
    const properties = Object.fromEntries(form.map((p) => [p.name as string, convertSchema(convertParameter(p).schema)]));
    const required = form.filter((p) => p.required).map((p) => p.name as string);
    out.requestBody = { content: { [type]: { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } } } };
  }
  const responses: JsonSchema = {};
  for (const [code, r] of Object.entries((op.responses as Record<string, JsonSchema>) ?? {})) {
    const res: JsonSchema = { description: r.description ?? '' };
    if (r.schema) res.content = Object.fromEntries(opProduces.map((t) => [t, { schema: convertSchema(r.schema) }]));
    if (isObject(r.headers)) {
      res.headers = mapValues(r.headers, (v) => {
        const { description, ...schema } = v as JsonSchema;
        return { ...(description !== undefined ? { description } : {}), schema: convertSchema(schema) };
      });
    }
    responses[code] = res;
  }
  out.responses = responses;
  return out;
}

function convertSecurityScheme(s: JsonSchema): JsonSchema {
  const description = s.description !== undefined ? { description: s.description } : {};
  if (s.type === 'basic') return { type: 'http', scheme: 'basic', ...description };
  if (s.type === 'apiKey') return { type: 'apiKey', name: s.name, in: s.in, ...description };
  if (s.type === 'oauth2') {
    const flow = s.flow === 'accessCode' ? 'authorizationCode' : s.flow === 'application' ? 'clientCredentials' : String(s.flow);
    return { type: 'oauth2', ...description, flows: { [flow]: { ...(s.authorizationUrl ? { authorizationUrl: s.authorizationUrl } : {}), ...(s.tokenUrl ? { tokenUrl: s.tokenUrl } : {}), scopes: s.scopes ?? {} } } };
  }
  throw new Error(`unsupported Swagger 2.0 security scheme type ${String(s.type)}`);
}

export function swagger2ToOpenapi3(doc: JsonSchema): JsonSchema {
  if (doc.swagger !== '2.0') throw new Error('not a Swagger 2.0 document');
  const consumes = (doc.consumes as string[] | undefined) ?? ['application/json'];
  const produces = (doc.produces as string[] | undefined) ?? ['application/json'];
  const paths: JsonSchema = {};
  for (const [path, item] of Object.entries((doc.paths as Record<string, JsonSchema>) ?? {})) {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(item)) {
      if (METHODS.includes(k)) out[k] = convertOperation(v as JsonSchema, consumes, produces);
      else if (k === 'parameters') out.parameters = (v as JsonSchema[]).map(convertParameter);
      else out[k] = v;
    }
    paths[path] = out;
  }
  const host = typeof doc.host === 'string' ? doc.host : undefined;
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '/';
  const schemes = (doc.schemes as string[] | undefined) ?? [];
  const servers = host ? (schemes.length ? schemes : ['https']).map((s) => ({ url: `${s}://${host}${basePath}` })) : [{ url: basePath }];
  const components: JsonSchema = {};
  if (isObject(doc.definitions)) components.schemas = mapValues(doc.definitions, convertSchema);
  if (doc.securityDefinitions) components.securitySchemes = Object.fromEntries(Object.entries(doc.securityDefinitions as Record<string, JsonSchema>).map(([n, s]) => [n, convertSecurityScheme(s)]));
  const extensions = Object.fromEntries(Object.entries(doc).filter(([k]) => k.startsWith('x-')));
  return {
    openapi: '3.0.3',
    info: doc.info,
    servers,
    ...(doc.security ? { security: doc.security } : {}),
    ...(doc.tags ? { tags: doc.tags } : {}),
    paths,
    components,
    ...(doc.externalDocs ? { externalDocs: doc.externalDocs } : {}),
    ...extensions,
  };
}
