import type { Request, Response } from 'express';
import { z, type ZodType } from 'zod';
import { type RecordingRuleSpec, recordingRuleKind, recordingRuleSpecSchema, queryDataSourceUid } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrule';
import { recordingRuleWriterKind, recordingRuleWriterSpecSchema, WRITER_NAME } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrulewriter';
import { StatusError } from '../../pkg/errors';
import { DataSourceRouteMessages } from '../../pkg/plugins/instances';
import { evaluateRule, type RecordingRules, UnrecordableResult } from '../../pkg/recording-rules';
import type { RequestContext } from '../../pkg/registry';
import { type AdapterDeps, idParam, requestContext } from '../shared';
import { JSON_FIELD, ruleFromJSON, ruleToJSON, writerFromJSON, writerToJSON } from './recording-rules-conversions';

/**
 * /api/recording-rules (the enterprise edition's recorded queries): thin routes over the RecordingRule and
 * RecordingRuleWriter kinds (the server's companion registry) and pkg/recording-rules' evaluation. Every route
 * needs the org Admin role (checked by the mount); everything is in the caller's organization's namespace.
 */

export const Messages = {
  ruleNotFound: 'Recording rule not found',
  ruleDeleted: 'Recording rule deleted',
  writerNotFound: 'Remote write target not found',
  writerDeleted: 'Remote write target deleted',
  testSucceeded: 'Recording rule test succeeded',
  idRequired: 'id is required',
} as const;

/** The rules and their registry: served by the enterprise edition only (elsewhere the routes are not mounted). */
function rulesOf(deps: AdapterDeps): RecordingRules {
  if (!deps.recordingRules) throw new StatusError(404, 'NotFound', 'Not found');
  return deps.recordingRules;
}

/** The caller in its organization's namespace; the Admin role was checked by the route's guard. */
function ctxOf(req: Request, deps: AdapterDeps): RequestContext {
  const user = req.user!;
  return { requester: { identity: user.identity, login: user.login }, namespace: deps.registry.namespaces.of(user.orgId), fieldManager: 'recording-rules' };
}

/** `prom_name: must be a Prometheus metric name`: a schema's first complaint, named as the JSON names it. */
function badRequest(issues: readonly z.core.$ZodIssue[]): StatusError {
  const issue = issues[0]!;
  // A record's key refused: its own complaint, not zod's "Invalid key in record".
  const message = issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;
  const path = issue.path.map((p, i) => (i === 0 && typeof p === 'string' ? (JSON_FIELD[p] ?? p) : String(p))).join('.');
  return StatusError.badRequest(path ? `${path}: ${message}` : message);
}

function parse<T>(schema: ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues);
  return parsed.data;
}

/** The body as an object, null members dropped (Go clients send `null` for what they leave empty). */
function bodyOf(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw StatusError.badRequest('bad request data');
  return Object.fromEntries(Object.entries(b as Record<string, unknown>).filter(([, v]) => v !== null));
}

const ruleBody = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  active: z.boolean().optional(),
  count: z.boolean().optional(),
  interval: z.number().optional(),
  range: z.number().optional(),
  dest_data_source_uid: z.string().optional(),
  prom_name: z.string().optional(),
  target_ref_id: z.string().optional(),
  queries: z.array(z.record(z.string(), z.unknown())).optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
const writerBody = z.object({ id: z.string().optional(), data_source_uid: z.string().optional(), remote_write_path: z.string().optional() });

/**
 * The data sources a rule names, checked as the caller: each query's must exist in the organization and be
 * queryable by the caller (400 naming it, 403 as POST /api/ds/query); `dest_data_source_uid`, when set, must be a
 * Prometheus data source of the organization (400).
 */
async function checkDataSources(req: Request, deps: AdapterDeps, spec: RecordingRuleSpec): Promise<void> {
  const ctx = requestContext(req, deps.registry);
  for (const uid of new Set(spec.queries.map(queryDataSourceUid))) {
    try {
      await deps.dataSources.resolve(ctx, { uid }, { deniedMessage: DataSourceRouteMessages.queryAccessDenied });
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 400)) throw StatusError.badRequest(`queries: data source ${JSON.stringify(uid)} not found`);
      throw err;
    }
  }
  if (spec.destDataSourceUid && !(await isPrometheus(deps, ctx.namespace, spec.destDataSourceUid))) {
    throw StatusError.badRequest(`dest_data_source_uid: ${JSON.stringify(spec.destDataSourceUid)} is not a Prometheus data source of this organization`);
  }
}

async function isPrometheus(deps: AdapterDeps, namespace: string, uid: string): Promise<boolean> {
  try {
    return (await deps.dataSources.find(namespace, { uid })).spec.type === 'prometheus';
  } catch (err) {
    if (err instanceof StatusError && (err.code === 404 || err.code === 400)) return false;
    throw err;
  }
}

/** A rule's spec from a body (over `stored` on update): 400 for what the kind refuses, before anything is stored. */
function specOf(body: Record<string, unknown>, stored?: RecordingRuleSpec): RecordingRuleSpec {
  const b = parse(ruleBody, body);
  return parse(recordingRuleSpecSchema, { ...stored, ...ruleFromJSON(b) }) as RecordingRuleSpec;
}

/** GET /api/recording-rules: every rule of the organization, active or not, by id. */
export async function listRecordingRules(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { items } = await rulesOf(deps).deps.registry.list(ctxOf(req, deps), recordingRuleKind, {});
  res.json(items.sort((a, b) => Number(a.metadata.name) - Number(b.metadata.name)).map((r) => ruleToJSON(r.metadata.name, r.spec)));
}

/** POST /api/recording-rules: stores a rule (its id the next number) and answers it; active, it runs at once. */
export async function createRecordingRule(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const rules = rulesOf(deps);
  const spec = specOf(bodyOf(req));
  await checkDataSources(req, deps, spec);
  const created = await rules.deps.registry.create(ctxOf(req, deps), recordingRuleKind, { metadata: {}, spec });
  res.json(ruleToJSON(created.metadata.name, created.spec));
}

/**
 * PUT /api/recording-rules: changes the rule `id` names; members the body omits keep their stored values (the
 * anchor's use: `{id, active}` to pause or resume). 404 for an id the organization has no rule of.
 */
export async function updateRecordingRule(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const rules = rulesOf(deps);
  const body = bodyOf(req);
  const id = body.id === undefined ? '' : String(body.id);
  if (id === '') throw StatusError.badRequest(Messages.idRequired);
  if (!/^[1-9][0-9]{0,14}$/.test(id)) throw new StatusError(404, 'NotFound', Messages.ruleNotFound);
  const ctx = ctxOf(req, deps);
  const current = await rules.deps.registry.get(ctx, recordingRuleKind, id).catch(notFound(Messages.ruleNotFound));
  const spec = specOf(body, current.spec);
  await checkDataSources(req, deps, spec);
  const updated = await rules.deps.registry
    .patch(ctx, recordingRuleKind, id, (cur) => ({ ...cur, spec }))
    .catch(notFound(Messages.ruleNotFound));
  res.json(ruleToJSON(updated.metadata.name, updated.spec));
}

/** DELETE /api/recording-rules/:recordingRuleID: the rule stops being evaluated. */
export async function deleteRecordingRule(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const rules = rulesOf(deps);
  const id = idParam(req, 'recordingRuleID');
  await rules.deps.registry.delete(ctxOf(req, deps), recordingRuleKind, String(id)).catch(notFound(Messages.ruleNotFound));
  res.json({ message: Messages.ruleDeleted });
}

/**
 * POST /api/recording-rules/test: evaluates the rule of the body once, as the caller (its data sources checked as
 * on create), and answers the series it would write; nothing is stored or written. A result that cannot be
 * recorded (a failed query, no number) is 422.
 */
export async function testRecordingRule(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const rules = rulesOf(deps);
  const spec = specOf(bodyOf(req));
  await checkDataSources(req, deps, spec);
  try {
    const series = await evaluateRule(rules.deps, requestContext(req, deps.registry), spec, Date.now());
    res.json({ message: Messages.testSucceeded, series });
  } catch (err) {
    if (err instanceof UnrecordableResult) throw new StatusError(422, 'Invalid', err.message);
    throw err;
  }
}

/** GET /api/recording-rules/writer: the organization's remote write target. */
export async function getWriteTarget(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const w = await rulesOf(deps).deps.registry.get(ctxOf(req, deps), recordingRuleWriterKind, WRITER_NAME).catch(notFound(Messages.writerNotFound));
  res.json(writerToJSON(w.metadata.uid!, w.spec));
}

/**
 * POST /api/recording-rules/writer: sets the organization's remote write target (replacing the one it had). 422
 * when `data_source_uid` names no Prometheus data source of the organization.
 */
export async function createWriteTarget(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const rules = rulesOf(deps);
  const spec = parse(recordingRuleWriterSpecSchema, writerFromJSON(parse(writerBody, bodyOf(req))));
  const ctx = ctxOf(req, deps);
  if (!(await isPrometheus(deps, ctx.namespace, spec.dataSourceUid))) {
    throw new StatusError(422, 'Invalid', `data_source_uid: ${JSON.stringify(spec.dataSourceUid)} is not a Prometheus data source of this organization`);
  }
  const { registry } = rules.deps;
  let stored;
  try {
    stored = await registry.create(ctx, recordingRuleWriterKind, { metadata: { name: WRITER_NAME }, spec });
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 409)) throw err;
    stored = await registry.patch(ctx, recordingRuleWriterKind, WRITER_NAME, (cur) => ({ ...cur, spec }));
  }
  res.json(writerToJSON(stored.metadata.uid!, stored.spec));
}

/** DELETE /api/recording-rules/writer: the rules stop being written until a target is set again. */
export async function deleteWriteTarget(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  await rulesOf(deps).deps.registry.delete(ctxOf(req, deps), recordingRuleWriterKind, WRITER_NAME).catch(notFound(Messages.writerNotFound));
  res.json({ message: Messages.writerDeleted });
}

/** A registry 404 in the route's words; anything else unchanged. */
function notFound(message: string) {
  return (err: unknown): never => {
    if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', message);
    throw err;
  };
}
