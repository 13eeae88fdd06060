import express, { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { StatusError } from '../errors';
import type { KindRegistration, Resource, ResourceList } from '../meta';
import type { AnswerCache } from './answer-cache';
import { type DeleteOptions, listAcross, type ListOptions, type OrgDirectory, type Registry, type RequestContext } from '../registry';
import { parseWatchResourceVersion } from '../registry/watch-options';
import { defaultFieldManager, validateFieldManager } from '../registry/managed-fields';
import type { Logger } from '../log';
import type { WatchHub } from '../registry/watch';
import { negotiate } from './negotiate';
import { requestContext } from './request-context';
import { decodeRequestBody, handlePatch, rawBodyOf, sendWarnings } from './patch-handler';
import type { Subresource } from './subresources';
import { sendNegotiated, tableWatchRenderer } from './table';
import type { WatchCredentials } from './watch-credentials';
import { isWatchRequest, serveWatch } from './watch-stream';

export interface ApisRouterOptions {
  registry: Registry;
  orgs: OrgDirectory;
  subresources: Subresource[];
  watchHub: WatchHub;
  log?: Logger;
  /** Ends open watches whose caller's credential lost its access. */
  credentials?: WatchCredentials;
  /** Keeps JSON answers of reads while the stored data is unchanged (none: every read is computed). */
  answers?: AnswerCache;
}

const NOT_FOUND = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource');

/**
 * `/apis/<group>/<version>/namespaces/<namespace>/<resource>[/<name>[/<subresource>]]`: the Kubernetes-style API of
 * every registered kind, the same routes for all of them.
 */
export function apisRouter({ registry, orgs, subresources, watchHub, log, credentials, answers }: ApisRouterOptions): Router {
  const router = Router();
  const base = '/apis/:group/:version/namespaces/:namespace/:resource';

  // A read's answer: kept and sent again while nothing stored changed when it is JSON, else computed each time.
  const answer = async (req: Request, res: Response, how: ReturnType<typeof negotiate>, kind: KindRegistration, read: () => Promise<Resource | ResourceList>) => {
    if (how.kind === 'json' && answers) return answers.send(req, res, read);
    sendNegotiated(res, how, kind, await read());
  };

  const resolve = async (req: Request): Promise<{ kind: KindRegistration; ctx: RequestContext }> => {
    const { group, version, namespace, resource } = req.params as Record<string, string>;
    const kind = registry.find(group, version, resource);
    if (!kind) throw NOT_FOUND();
    await registry.namespaces.resolve(namespace, orgs);
    return { kind, ctx: requestContext(req, namespace, fieldManager(req, kind)) };
  };

  router.get(base, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    const how = negotiate(req);
    if (isWatchRequest(req)) {
      const render = how.kind === 'table' ? tableWatchRenderer(kind, how.includeObject) : undefined;
      return serveWatch(req, res, { hub: watchHub, registry, kind, contexts: [ctx], render, log, credentials });
    }
    await answer(req, res, how, kind, () => registry.list(ctx, kind, listOptions(req)));
  });

  router.post(base, requireJson, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    const { body, warnings } = decodeRequestBody(kind, req, 'CreateOptions');
    const created = await registry.create(ctx, kind, body, { dryRun: dryRun(req) });
    sendWarnings(res, warnings);
    res.status(201).json(created);
  });

  router.delete(base, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    res.json(await registry.deleteCollection(ctx, kind, listOptions(req), deleteOptions(req)));
  });

  router.get(`${base}/:name`, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    await answer(req, res, negotiate(req), kind, () => registry.get(ctx, kind, req.params.name as string));
  });

  router.put(`${base}/:name`, requireJson, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    const { body, warnings } = decodeRequestBody(kind, req, 'UpdateOptions');
    const updated = await registry.update(ctx, kind, req.params.name as string, body, { dryRun: dryRun(req) });
    sendWarnings(res, warnings);
    res.json(updated);
  });

  router.patch(`${base}/:name`, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    const { status, body, warnings } = await handlePatch({
      registry, kind, ctx, name: req.params.name as string, contentType: mediaType(req), body: req.body, raw: rawBodyOf(req), dryRun: dryRun(req), query: req.query,
    });
    sendWarnings(res, warnings);
    res.status(status).json(body);
  });

  router.delete(`${base}/:name`, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    res.json(await registry.delete(ctx, kind, req.params.name as string, deleteOptions(req)));
  });

  router.get(`${base}/:name/:subresource`, async (req, res) => {
    const { kind, ctx } = await resolve(req);
    const sub = subresources.find((s) => s.kind === kind && s.name === req.params.subresource);
    if (!sub) throw NOT_FOUND();
    res.json(await sub.get(ctx, req.params.name as string, req));
  });

  // Across namespaces (`kubectl get -A [--watch]`, informers of all namespaces): the caller's organizations it may
  // list the kind in (apisOrgAccess), each with its rights there. A watch ends (410 Expired: list again) once those
  // memberships change (see CallerCheck).
  router.get('/apis/:group/:version/:resource', async (req, res) => {
    const { group, version, resource } = req.params as Record<string, string>;
    const kind = registry.find(group, version, resource);
    if (!kind) throw NOT_FOUND();
    const field = fieldManager(req, kind);
    const contexts = (req.orgScopes ?? []).map(({ orgId, role }) => ({ ...requestContext(req, registry.namespaces.of(orgId), field), access: req.accessIn?.(orgId, role) }));
    const how = negotiate(req);
    if (isWatchRequest(req)) {
      const render = how.kind === 'table' ? tableWatchRenderer(kind, how.includeObject) : undefined;
      return serveWatch(req, res, { hub: watchHub, registry, kind, contexts, across: true, render, log, credentials });
    }
    await answer(req, res, how, kind, () => listAcross(registry, contexts, kind, listOptions(req)));
  });

  // A known path with a verb it does not serve is 405; any other /apis path is 404.
  router.all([base, `${base}/:name`], async (req) => {
    const { kind, ctx } = await resolve(req);
    await registry.requireVerb(ctx, kind, 'write');
    throw StatusError.methodNotAllowed();
  });
  router.all('/apis/*rest', () => {
    throw NOT_FOUND();
  });
  return router;
}

function query(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw StatusError.badRequest(`query parameter ${name} must be given once`);
  return v;
}

function listOptions(req: Request): ListOptions {
  const limit = query(req, 'limit');
  if (limit !== undefined && limit !== '' && !/^[0-9]{1,15}$/.test(limit)) {
    throw StatusError.badRequest(`invalid limit ${JSON.stringify(limit)}: must be a non-negative integer`);
  }
  const n = limit ? Number(limit) : 0;
  const cont = query(req, 'continue') || undefined;
  return {
    limit: n > 0 ? n : undefined,
    continue: cont,
    labelSelector: query(req, 'labelSelector'),
    fieldSelector: query(req, 'fieldSelector'),
    ...listVersion(query(req, 'resourceVersion'), query(req, 'resourceVersionMatch'), cont),
  };
}

const RESOURCE_VERSION_MATCHES = ['Exact', 'NotOlderThan'];

/** A list's resourceVersion and resourceVersionMatch, checked as kube-apiserver's ValidateListOptions checks them (422). */
function listVersion(rv: string | undefined, match: string | undefined, cont: string | undefined): Pick<ListOptions, 'resourceVersion' | 'resourceVersionMatch'> {
  const causes: { field: string; message: string; reason: string }[] = [];
  const forbidden = (message: string) => causes.push({ field: 'resourceVersionMatch', reason: 'FieldValueForbidden', message: `Forbidden: ${message}` });
  if (match) {
    if (!rv) forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (cont) forbidden('resourceVersionMatch is forbidden when continue is provided');
    if (!RESOURCE_VERSION_MATCHES.includes(match)) {
      causes.push({ field: 'resourceVersionMatch', reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""` });
    }
    if (match === 'Exact' && rv === '0') forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (causes.length) throw StatusError.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', causes);
  const version = parseWatchResourceVersion(rv);
  if (version !== undefined && cont) throw StatusError.badRequest('specifying resource version is not allowed when using continue');
  if (version === undefined) return {};
  return { resourceVersion: version, ...(match ? { resourceVersionMatch: match as 'Exact' | 'NotOlderThan' } : {}) };
}

function dryRun(req: Request): boolean {
  const v = query(req, 'dryRun');
  if (v === undefined || v === '') return false;
  if (v !== 'All') throw StatusError.badRequest(`Invalid dryRun value ${JSON.stringify(v)}: the only supported value is All`);
  return true;
}

function fieldManager(req: Request, kind: KindRegistration): string {
  const v = query(req, 'fieldManager');
  if (v === undefined) return defaultFieldManager(req.get('user-agent'));
  const problem = validateFieldManager(v);
  if (problem) throw StatusError.invalid(kind, '', [{ field: 'fieldManager', message: problem }]);
  return v;
}

/** DeleteOptions as kube-apiserver decodes them from a DELETE's body (fields it does not know are ignored). */
const DELETE_OPTIONS_BODY = z.object({
  gracePeriodSeconds: z.number().int().nullish(),
  preconditions: z.object({ uid: z.string().nullish(), resourceVersion: z.string().nullish() }).nullish(),
  orphanDependents: z.boolean().nullish(),
  propagationPolicy: z.string().nullish(),
  dryRun: z.array(z.string()).nullish(),
});

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'];

/**
 * The options of a DELETE: `?dryRun=All` or the body's DeleteOptions. A body that does not decode is a 400 and one
 * with an unsupported value a 422, as kube-apiserver answers, and nothing is deleted: a delete the caller meant as a
 * dry run never deletes.
 */
function deleteOptions(req: Request): DeleteOptions {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw StatusError.badRequest('DeleteOptions must be a JSON object');
  const parsed = DELETE_OPTIONS_BODY.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.path[0] === 'preconditions') throw StatusError.badRequest('DeleteOptions.preconditions must hold string uid and resourceVersion');
    throw StatusError.badRequest(`DeleteOptions.${issue.path.join('.')}: ${issue.message}`);
  }
  const o = parsed.data;
  const causes: { field: string; message: string; reason: string }[] = [];
  const unsupported = (field: string, value: unknown, supported: string[]) =>
    causes.push({ field, reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` });
  if (o.propagationPolicy != null && !PROPAGATION_POLICIES.includes(o.propagationPolicy)) unsupported('propagationPolicy', o.propagationPolicy, PROPAGATION_POLICIES);
  if (o.propagationPolicy != null && o.orphanDependents != null) {
    causes.push({ field: 'propagationPolicy', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(o.propagationPolicy)}: orphanDependents and deletionPropagation cannot be both set` });
  }
  if (o.dryRun?.some((v) => v !== 'All')) unsupported('dryRun', o.dryRun, ['All']);
  if (causes.length) throw StatusError.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', causes);
  const pre = o.preconditions ? { ...(o.preconditions.uid != null ? { uid: o.preconditions.uid } : {}), ...(o.preconditions.resourceVersion != null ? { resourceVersion: o.preconditions.resourceVersion } : {}) } : undefined;
  return { preconditions: pre, dryRun: dryRun(req) || o.dryRun?.includes('All') === true };
}

export function mediaType(req: Request): string {
  return (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** POST and PUT take JSON (a request without a Content-Type is JSON, as kube-apiserver reads it); else 415. */
function requireJson(req: Request, _res: Response, next: express.NextFunction): void {
  const type = mediaType(req);
  if (type !== 'application/json' && type !== '') {
    return next(StatusError.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json`));
  }
  if (req.body === undefined) return next(StatusError.badRequest('the request body is empty'));
  next();
}
