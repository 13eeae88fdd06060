import { z, type ZodType } from 'zod';
import type { LegacyBody, LegacyParam, LegacyResponse, LegacyRouteDoc } from './legacy-routes';
import type { JsonSchema } from './structural-schema';

/**
 * The legacy `/api` as an OpenAPI v2 (Swagger 2.0) document, built from the route descriptions (spec §9.4: the
 * HTTP API is specified in OpenAPI v2, and v3 is generated from that). Paths are relative to `basePath: /api`,
 * as the anchor's `api-merged.json` writes them.
 */

export const LEGACY_BASE_PATH = '/api';
const ERROR_MODEL = 'ErrorResponseBody';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad request: the request is malformed.',
  401: 'Unauthorized: the request carries no valid credentials.',
  403: 'Forbidden: the caller may not do this.',
  404: 'Not found.',
  409: 'Conflict.',
  412: 'Precondition failed: the object was changed by someone else.',
  413: 'The request body is too large.',
  422: 'Unprocessable entity: the request is invalid.',
  500: 'Internal server error.',
  503: 'The service is unavailable.',
};

/** Swagger 2.0 Schema Object keywords; zod's other output (anyOf, nullable, const...) is translated or dropped. */
const V2_KEYS = new Set(['format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'readOnly', 'example']);

/** One node of zod's openapi-3.0 output as a Swagger 2.0 schema: `nullable` → `x-nullable`, unions narrowed. */
export function toSwagger2Schema(node: JsonSchema): JsonSchema {
  const union = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (union) {
    const members = union.filter((m) => m.type !== 'null');
    const nullable = node.nullable === true || members.length < union.length;
    const extra = { ...(typeof node.description === 'string' ? { description: node.description } : {}), ...(nullable ? { 'x-nullable': true } : {}) };
    if (members.length === 1) return { ...toSwagger2Schema(members[0]), ...extra };
    const types = new Set(members.map((m) => m.type));
    if (types.size === 1 && members.every((m) => Array.isArray(m.enum))) {
      return { type: members[0].type, enum: members.flatMap((m) => m.enum as unknown[]), ...extra };
    }
    // Swagger 2.0 has no unions: the value is left untyped.
    return extra;
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) if (V2_KEYS.has(k)) out[k] = v;
  if ('const' in node) out.enum = [node.const];
  if (node.nullable === true) out['x-nullable'] = true;
  if (node.type === 'integer') {
    if (out.minimum === -Number.MAX_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    out.format ??= 'int64';
  }
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) out.items = toSwagger2Schema(node.items as JsonSchema);
  else if (node.type === 'array') out.items = {};
  if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties as Record<string, JsonSchema>).map(([k, v]) => [k, toSwagger2Schema(v)]));
  // `additionalProperties: false` (zod's z.object) is left out: a client must not break when a field is added.
  const ap = node.additionalProperties;
  if (typeof ap === 'object' && ap !== null) out.additionalProperties = toSwagger2Schema(ap as JsonSchema);
  else if (ap === true) out.additionalProperties = true;
  if (Array.isArray(node.allOf)) out.allOf = (node.allOf as JsonSchema[]).map(toSwagger2Schema);
  return out;
}

export function zodToSwagger2(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  return toSwagger2Schema(z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as JsonSchema);
}

/**
 * `/api/dashboards/uid/:uid` → `/dashboards/uid/{uid}`; a wildcard (express' `*rest`, optional `{/*rest}`) is one
 * parameter standing for the rest of the path: `/api/datasources/proxy/uid/:uid{/*route}` → `/datasources/proxy/uid/{uid}/{route}`.
 */
export function swaggerPath(expressPath: string): string {
  if (expressPath !== LEGACY_BASE_PATH && !expressPath.startsWith(`${LEGACY_BASE_PATH}/`)) {
    throw new Error(`legacy route ${expressPath} is not under ${LEGACY_BASE_PATH}`);
  }
  return (expressPath.slice(LEGACY_BASE_PATH.length) || '/')
    .replace(/\{\/\*([A-Za-z0-9_]+)\}/g, '/{$1}')
    .replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
}

export interface LegacySwaggerOptions {
  routes: readonly LegacyRouteDoc[];
  /** `info.version`: the server's version. */
  version: string;
}

/**
 * The Swagger 2.0 document of the legacy routes.
 *
 * @example
 *   legacySwagger({ routes: legacyRoutes, version: '0.1.0' }).paths['/health'].get.operationId // 'getHealth'
 */
export function legacySwagger(opts: LegacySwaggerOptions): JsonSchema {
  const definitions: Record<string, JsonSchema> = {
    [ERROR_MODEL]: {
      type: 'object',
      description: 'The legacy API error body.',
      required: ['message'],
      properties: { message: { type: 'string' }, status: { type: 'string', description: 'A machine-readable word some errors carry, e.g. version-mismatch.' } },
    },
  };
  const model = (schema: ZodType, io: 'input' | 'output', name?: string): JsonSchema => {
    const s = zodToSwagger2(schema, io);
    if (!name) return s;
    const existing = definitions[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(s)) throw new Error(`two different legacy models are named ${name}`);
    definitions[name] = s;
    return { $ref: `#/definitions/${name}` };
  };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const r of opts.routes) {
    const path = swaggerPath(r.path);
    const method = (paths[path] ??= {});
    if (method[r.method]) throw new Error(`legacy route ${r.method.toUpperCase()} ${r.path} is described twice`);
    r.tags.forEach((t) => tags.add(t));
    const authenticated = r.authenticated !== false;
    const responses: Record<string, JsonSchema> = {};
    const codes: Record<number, LegacyResponse> = authenticated ? { 401: {}, ...r.responses } : { ...r.responses };
    for (const [code, res] of Object.entries(codes).sort(([a], [b]) => Number(a) - Number(b))) {
      const n = Number(code);
      const schema = res.schema ? model(res.schema, 'output', res.name) : n >= 400 ? { $ref: `#/definitions/${ERROR_MODEL}` } : undefined;
      responses[code] = { description: res.description ?? STATUS_TEXT[n] ?? `HTTP ${n}`, ...(schema ? { schema } : {}) };
    }
    const description = [r.description, r.deprecated ? `Deprecated: use ${r.deprecated.replacedBy} instead.` : undefined].filter(Boolean).join('\n\n');
    method[r.method] = {
      tags: r.tags,
      summary: r.summary,
      ...(description ? { description } : {}),
      operationId: r.operationId,
      parameters: [...parameters(r), ...(r.body ? [bodyParameter(r.body, model)] : [])],
      responses,
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(authenticated ? {} : { security: [] }),
    };
  }
  const ids = opts.routes.map((r) => r.operationId);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`two legacy routes have the operationId ${dup}`);

  return {
    swagger: '2.0',
    info: {
      title: 'dashboard-apiserver HTTP API',
      description: 'The legacy HTTP API under /api. The Kubernetes-style API under /apis is described per group-version at /openapi/v3.',
      version: opts.version,
    },
    basePath: LEGACY_BASE_PATH,
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: { basic: { type: 'basic', description: 'HTTP basic authentication' } },
    security: [{ basic: [] }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b))),
  };
}

function parameters(r: LegacyRouteDoc): JsonSchema[] {
  const declared = r.params ?? [];
  const pathNames = [...r.path.matchAll(/[:*]([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  for (const p of declared.filter((p) => p.in === 'path')) {
    if (!pathNames.includes(p.name)) throw new Error(`legacy route ${r.path} declares path parameter ${p.name} it does not have`);
  }
  const derived: LegacyParam[] = pathNames.filter((n) => !declared.some((p) => p.in === 'path' && p.name === n)).map((name) => ({ name, in: 'path', type: 'string' }));
  return [...derived, ...declared].map((p) => {
    const base = {
      ...(p.enum ? { enum: p.enum } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
    return {
      name: p.name,
      in: p.in,
      ...(p.description ? { description: p.description } : {}),
      required: p.in === 'path' ? true : p.required ?? false,
      ...(p.array ? { type: 'array', items: { type: p.type, ...base }, collectionFormat: 'multi' } : { type: p.type, ...base }),
      ...(p.deprecated ? { 'x-deprecated': true } : {}),
    };
  });
}

function bodyParameter(body: LegacyBody, model: (s: ZodType, io: 'input' | 'output', name?: string) => JsonSchema): JsonSchema {
  return { name: 'body', in: 'body', required: true, ...(body.description ? { description: body.description } : {}), schema: model(body.schema, 'input', body.name) };
}
