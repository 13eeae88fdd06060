import type { Request, Response } from 'express';
import { correlationKind, dataSourceKind } from '../../apis';
import { CORRELATION_LABELS, type CorrelationSpec } from '../../apis/correlation.svc.app/v1beta1/correlation';
import { StatusError } from '../../pkg/errors';
import { randomUid, type Resource } from '../../pkg/meta';
import { type AdapterDeps, positiveQueryInt, requestContext } from '../shared';
import { createdSpec, patchedSpec, toCorrelationDTO } from './correlations-conversions';

/**
 * Correlations (the anchor's /api/datasources/correlations and /api/datasources/uid/:sourceUID/correlations) as a
 * client of the Correlation kind: the registry checks that both data sources exist in the organization and a data
 * source's delete takes its correlations; the routes read the source data source as the caller first.
 */

const CORRELATIONS = correlationKind;
const DATASOURCES = dataSourceKind;
/** The anchor's page size and its largest. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const noCorrelation = () => new StatusError(404, 'NotFound', 'No correlation found');
const correlationNotFound = () => new StatusError(404, 'NotFound', 'Correlation not found');
const ctxOf = (req: Request, deps: AdapterDeps) => requestContext(req, deps.registry);
const dto = (req: Request, obj: Resource<CorrelationSpec>) => toCorrelationDTO(obj, req.user!.orgId);

/** The source data source of the path, read as the caller (404 "Data source not found"). */
async function source(req: Request, deps: AdapterDeps, param = 'sourceUID'): Promise<string> {
  const uid = String(req.params[param]);
  await deps.registry.get(ctxOf(req, deps), DATASOURCES, uid);
  return uid;
}

/** The correlation of the path, which must come from the source of the path. */
async function correlation(req: Request, deps: AdapterDeps, sourceUID: string): Promise<Resource<CorrelationSpec>> {
  const found = await deps.registry.get(ctxOf(req, deps), CORRELATIONS, String(req.params.correlationUID));
  if (found.spec.sourceUID !== sourceUID) throw correlationNotFound();
  return found;
}

const byUid = (a: Resource, b: Resource) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

export async function getCorrelations(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const limit = Math.min(positiveQueryInt(req.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
  const page = positiveQueryInt(req.query.page, 1);
  const sources = ([] as unknown[]).concat(req.query.sourceUID ?? []).filter((s): s is string => typeof s === 'string' && s !== '');
  const all = (await deps.registry.list(ctxOf(req, deps), CORRELATIONS, {})).items;
  const matching = all.filter((c) => !sources.length || sources.includes(c.spec.sourceUID)).sort(byUid);
  const onPage = matching.slice((page - 1) * limit, page * limit);
  if (!onPage.length) throw noCorrelation();
  res.json(onPage.map((c) => dto(req, c)));
}

export async function getCorrelationsBySourceUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const sourceUID = await source(req, deps);
  const found = await deps.registry.list(ctxOf(req, deps), CORRELATIONS, { labelSelector: `${CORRELATION_LABELS.source}=${sourceUID}` });
  if (!found.items.length) throw noCorrelation();
  res.json(found.items.sort(byUid).map((c) => dto(req, c)));
}

export async function createCorrelation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const sourceUID = await source(req, deps);
  const spec = createdSpec(sourceUID, req.body);
  const created = await deps.registry.create(ctxOf(req, deps), CORRELATIONS, { metadata: { name: randomUid() }, spec });
  res.json({ message: 'Correlation created', result: dto(req, created) });
}

export async function getCorrelation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(dto(req, await correlation(req, deps, await source(req, deps))));
}

export async function updateCorrelation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const current = await correlation(req, deps, await source(req, deps));
  const updated = await deps.registry.patch(ctxOf(req, deps), CORRELATIONS, current.metadata.name, (obj) => ({ ...obj, spec: patchedSpec(obj.spec, req.body) }), {
    // The correlation read above, not another one made with its uid since.
    check: async (_tx, stored) => {
      if (stored.metadata.uid !== current.metadata.uid) throw correlationNotFound();
    },
  });
  res.json({ message: 'Correlation updated', result: dto(req, updated) });
}

export async function deleteCorrelation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const current = await correlation(req, deps, await source(req, deps, 'uid'));
  await deps.registry.delete(ctxOf(req, deps), CORRELATIONS, current.metadata.name, { preconditions: { uid: current.metadata.uid } });
  res.json({ message: 'Correlation deleted' });
}
