import type { Request, Response } from 'express';
import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import type { JsonObject } from '../../pkg/meta';
import { jsonChanges, jsonDelta } from '../../pkg/patch';
import type { RequestContext } from '../../pkg/registry';
import { type AdapterDeps, bind, findByInternalId, requestContext, requireAnyAction } from '../shared';
import { toDashboardModel } from './dashboards-conversions';
import { dashboardNotFound } from './dashboards-errors';
import { dashboardKind } from './dashboards-save';

const side = z.object({
  dashboardId: z.int().positive().describe('the deprecated numeric id of the dashboard'),
  version: z.int().positive().optional().describe('a stored version of it; not needed with unsavedDashboard'),
  unsavedDashboard: z.record(z.string(), z.unknown()).optional().describe('a model to compare instead of a stored version'),
});

/** The body of `POST /api/dashboards/calculate-diff` (the anchor's CalculateDiffOptions). */
export const calculateDiffSchema = z.object({
  base: side,
  new: side,
  diffType: z.string().optional().describe('`json` (or `delta`): the jsondiffpatch delta; `basic` (the default): the list of changes'),
});

type Side = z.infer<typeof side>;
type DiffType = 'json' | 'basic';

function diffTypeOf(v: string | undefined): DiffType {
  if (v === undefined || v === '' || v === 'basic') return 'basic';
  if (v === 'json' || v === 'delta') return 'json';
  throw StatusError.badRequest('Unsupported diff type');
}

/**
 * `POST /api/dashboards/calculate-diff`: the difference between two dashboard versions (or a version and an
 * unsaved model), each named by its dashboard's id. The anchor renders `json` and `basic` as HTML; the spec's
 * bodies are JSON (§4), so both are JSON here: `json` is the anchor's JSON delta (the jsondiffpatch format, `{}`
 * when nothing differs), `basic` the list of changes by JSON Pointer. The models compared are the versions as
 * `GET .../versions/:version` shows their `data`.
 *
 * Needs `dashboards:write` on each dashboard, as the version routes (a Viewer may not read the history).
 */
export async function calculateDashboardDiff(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = bind(req, calculateDiffSchema);
  const diffType = diffTypeOf(cmd.diffType);
  if ([cmd.base, cmd.new].some((s) => s.version === undefined && s.unsavedDashboard === undefined)) throw StatusError.badRequest('bad request data');
  const ctx = requestContext(req, deps.registry);
  // Both dashboards are found and checked before any version is read: a refusal reveals nothing of either.
  const [base, next] = [await dashboardOf(req, deps, ctx, cmd.base), await dashboardOf(req, deps, ctx, cmd.new)];
  const [a, b] = [await modelOf(deps, ctx, cmd.base, base), await modelOf(deps, ctx, cmd.new, next)];
  res.json(diffType === 'json' ? jsonDelta(a, b) ?? {} : jsonChanges(a, b));
}

/** The name of the dashboard numbered `s.dashboardId` in the caller's org, once the caller may write it. */
async function dashboardOf(req: Request, deps: AdapterDeps, ctx: RequestContext, s: Side): Promise<string> {
  const found = await findByInternalId(deps.registry, { ...ctx, access: undefined }, dashboardKind, s.dashboardId);
  if (!found) throw dashboardNotFound();
  await requireAnyAction(req, ['dashboards:write'], `dashboards:uid:${found.metadata.name}`);
  return found.metadata.name;
}

async function modelOf(deps: AdapterDeps, ctx: RequestContext, s: Side, name: string): Promise<JsonObject> {
  if (s.unsavedDashboard) return s.unsavedDashboard as JsonObject;
  const found = await deps.registry.historyVersion(ctx, dashboardKind, name, s.version!);
  if (!found) throw new StatusError(404, 'NotFound', 'Dashboard version not found');
  return toDashboardModel(found.object);
}
