import type { Request, Response } from 'express';
import { type StatusCause, StatusError } from '../errors';
import type { JsonObject, KindRegistration } from '../meta';
import {
  APPLY_PATCH,
  applyJsonPatch,
  decodeBody,
  decodeJsonPatch,
  duplicateFields,
  duplicateProblems,
  type FieldValidation,
  fieldValidationCause,
  JSON_PATCH,
  MERGE_PATCH,
  type OptionsKind,
  parseApplyConfig,
  parseFieldValidation,
  applyPatch,
  strictOutcome,
  unknownFields,
  unsupportedPatchType,
  warningHeader,
} from '../patch';
import type { Registry, RequestContext } from '../registry';

export interface PatchRequest {
  registry: Registry;
  kind: KindRegistration;
  ctx: RequestContext;
  name: string;
  /** The request's media type, without parameters: application/merge-patch+json... */
  contentType: string;
  /** The parsed body (JSON patches), or the text of an apply patch. */
  body: unknown;
  /** The body's text as sent, when the server kept it: duplicate members are found in it. */
  raw?: string;
  dryRun: boolean;
  query: Request['query'];
}

export interface PatchResponse {
  status: number;
  body: unknown;
  /** Texts for `Warning: 299` headers (fieldValidation=Warn); send them with `sendWarnings`. */
  warnings: string[];
}

const PATCH_OPTIONS = { group: 'meta.k8s.io', kind: 'PatchOptions' };
/** Go's strconv.ParseBool, which decodes kube's boolean query parameters. */
const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/**
 * PATCH on an object: the media type says which kind of patch. JSON and merge patches are read-modify-writes of the
 * object as clients see it; an apply patch is server-side apply by the `fieldManager` (which it requires), creating
 * the object when it does not exist (201). kube-apiserver's order: media type (415), options (422), then the body.
 *
 * @example const { status, body, warnings } = await handlePatch({ registry, kind, ctx, name, contentType, body, dryRun, query });
 */
export async function handlePatch(p: PatchRequest): Promise<PatchResponse> {
  if (p.contentType !== JSON_PATCH && p.contentType !== MERGE_PATCH && p.contentType !== APPLY_PATCH) throw unsupportedPatchType();
  const { directive, force } = patchOptions(p);
  if (p.contentType === APPLY_PATCH) return apply(p, directive, force ?? false);
  if (p.body === undefined) throw StatusError.badRequest('the request body is empty');

  const raw = typeof p.raw === 'string' ? p.raw : undefined;
  const json = p.contentType === JSON_PATCH ? decodeJsonPatch(p.body, raw ? duplicateFields(raw) : []) : undefined;
  const patchProblems = json ? json.problems : duplicateProblems(raw);
  const warnings: string[] = [];
  const patched = await p.registry.patch(
    p.ctx,
    p.kind,
    p.name,
    (current) => {
      const next = json ? applyJsonPatch(current, json.ops) : applyPatch(MERGE_PATCH, current, p.body);
      const unknown = unknownFields(p.kind, next);
      const problems = [...patchProblems, ...unknown.paths.map((f) => `unknown field ${JSON.stringify(f)}`)];
      // kube: 422 Invalid on field "patch" whose value is the patched object.
      // The callback may run again (a retried transaction): its warnings replace the previous run's.
      warnings.splice(0, warnings.length, ...strictOutcome(directive, problems, (message) => StatusError.invalid(p.kind, p.name, [{ field: 'patch', message: `Invalid value: ${shown(next)}: ${message}` }])));
      return unknown.pruned;
    },
    { dryRun: p.dryRun },
  );
  return { status: 200, body: patched, warnings };
}

/** Sends each warning as its own `Warning` header, as kube-apiserver does. */
export function sendWarnings(res: Response, warnings: readonly string[]): void {
  for (const w of warnings) res.append('Warning', warningHeader(w));
}

/**
 * The `verify` option of express.json: keeps the body's text on the request (`rawBody`), where strict decoding
 * finds duplicate members that JSON.parse dropped.
 *
 * @example app.use(express.json({ limit, type: ['application/json', 'application/*+json'], strict: false, verify: keepRawBody }));
 */
export function keepRawBody(req: unknown, _res: unknown, buf: Buffer): void {
  (req as { rawBody?: string }).rawBody = buf.toString('utf8');
}

/** The text `keepRawBody` kept, if the body was JSON. */
export function rawBodyOf(req: Request): string | undefined {
  const raw = (req as unknown as { rawBody?: unknown }).rawBody;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * A POST or PUT body, strictly decoded as `?fieldValidation=` asks (see pkg/patch/field-validation.ts): the body to
 * hand the registry (undeclared fields dropped) and the warnings to send; Strict problems are a 400.
 *
 * @example const { body, warnings } = decodeRequestBody(kind, req, 'CreateOptions');
 */
export function decodeRequestBody(kind: KindRegistration, req: Request, options: OptionsKind): { body: unknown; warnings: string[] } {
  return decodeBody(kind, req.body, { fieldValidation: parseFieldValidation(req.query.fieldValidation, options), raw: rawBodyOf(req) });
}

async function apply(p: PatchRequest, directive: FieldValidation, force: boolean): Promise<PatchResponse> {
  const { config, duplicates } = parseApplyConfig(p.body);
  const warnings = directive === 'Ignore' ? [] : duplicates;
  if (directive === 'Strict' && duplicates.length) {
    throw StatusError.badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`);
  }
  // As kube's typed conversion of an applied configuration: an undeclared field is an error whatever fieldValidation says.
  const unknown = unknownFields(p.kind, config).paths;
  if (unknown.length) {
    const errors = unknown.map((f) => `.${f}: field not declared in schema`);
    const gvk = `${p.kind.group}/${p.kind.version}, Kind=${p.kind.kind}`;
    throw StatusError.badRequest(
      `failed to create typed patch object (${p.ctx.namespace}/${p.name}; ${gvk}): ${errors.length === 1 ? errors[0] : ['errors:', ...errors].join('\n  ')}`,
    );
  }
  const { object, created } = await p.registry.apply(p.ctx, p.kind, p.name, config as JsonObject, { force, dryRun: p.dryRun });
  return { status: created ? 201 : 200, body: object, warnings };
}

/** kube's ValidatePatchOptions: apply needs a fieldManager, only apply takes `force`; every problem in one 422. */
function patchOptions(p: PatchRequest): { directive: FieldValidation; force: boolean | undefined } {
  const causes: StatusCause[] = [];
  const force = boolParam(p.query.force, 'force');
  if (p.contentType === APPLY_PATCH) {
    const manager = p.query.fieldManager;
    if (typeof manager !== 'string' || manager === '') causes.push({ field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' });
  } else if (force !== undefined) {
    causes.push({ field: 'force', reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch' });
  }
  const validation = fieldValidationCause(p.query.fieldValidation);
  if (validation) causes.push(validation);
  if (causes.length) throw StatusError.invalid(PATCH_OPTIONS, '', causes);
  return { directive: (p.query.fieldValidation || 'Warn') as FieldValidation, force };
}

function boolParam(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && TRUE.includes(value)) return true;
  if (typeof value === 'string' && FALSE.includes(value)) return false;
  throw StatusError.badRequest(`invalid value for query parameter ${name}: ${JSON.stringify(value)}: must be true or false`);
}

/** The patched object in an error message: as JSON, cut short (a dashboard can be megabytes). */
function shown(value: unknown): string {
  const s = JSON.stringify(JSON.stringify(value));
  return s.length > 256 ? `${s.slice(0, 253)}..."` : s;
}
