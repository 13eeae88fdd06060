import type { Request, Response } from 'express';
import { dataSourceKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { Labels, randomUid } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { type AdapterDeps, idParam, queryString, requestContext } from '../shared';
import {
  byName, type DataSourceCommand, type DataSourceObject, freeName, idOf, parseDataSourceCommand, specOf, toDataSourceDTO, toListItem,
} from './datasources-conversions';
import { updateRefusal } from './datasources-errors';

/**
 * The legacy data source API (spec §4.5) as a client of the DataSource kind: each route binds the anchor's body,
 * calls the registry as the caller (its uniqueness, default, version, read-only and permission rules apply as they
 * do under /apis) and answers the anchor's records. The deprecated routes find the data source by id or name first.
 */

export const KIND = dataSourceKind;

const notFound = () => new StatusError(404, 'NotFound', 'Data source not found');

/** The actions a record's `accessControl` reports (`?accesscontrol=true`). */
const RECORD_ACTIONS = ['datasources:read', 'datasources:query', 'datasources:write', 'datasources:delete', 'datasources.permissions:read', 'datasources.permissions:write'];

const ctxOf = (req: Request, deps: AdapterDeps): RequestContext => requestContext(req, deps.registry);
/** The caller's org without its checks: to find a data source by id or name, never to answer with it. */
const lookupCtx = (req: Request, deps: AdapterDeps): RequestContext => ({ ...ctxOf(req, deps), access: undefined });

async function allOfOrg(req: Request, deps: AdapterDeps): Promise<DataSourceObject[]> {
  return (await deps.registry.list(lookupCtx(req, deps), KIND, {})).items;
}

/** The uid of the data source with this legacy id in the caller's org, else 404. */
export async function uidById(req: Request, deps: AdapterDeps, id: number): Promise<string> {
  const found = await deps.registry.list(lookupCtx(req, deps), KIND, { labelSelector: `${Labels.deprecatedInternalID}=${id}` });
  if (!found.items[0]) throw notFound();
  return found.items[0].metadata.name;
}

/** The uid of the data source with this name in the caller's org, else 404. */
async function uidByName(req: Request, deps: AdapterDeps, name: string): Promise<string> {
  const found = (await allOfOrg(req, deps)).find((d) => d.spec.name === name);
  if (!found) throw notFound();
  return found.metadata.name;
}

/** A data source read as the caller (404, then 403 when it may not read it). */
async function read(req: Request, deps: AdapterDeps, uid: string): Promise<DataSourceObject> {
  return await deps.registry.get(ctxOf(req, deps), KIND, uid);
}

async function record(req: Request, obj: DataSourceObject, withAccess: boolean) {
  const dto = toDataSourceDTO(obj, req.user!.orgId);
  if (!withAccess || queryString(req.query.accesscontrol) !== 'true') return dto;
  const accessControl: Record<string, boolean> = {};
  for (const action of RECORD_ACTIONS) if (await req.access?.can(action, `datasources:uid:${obj.metadata.name}`)) accessControl[action] = true;
  return { ...dto, accessControl };
}

export async function listDataSources(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const visible = (await deps.registry.list(ctxOf(req, deps), KIND, {})).items;
  res.json(visible.sort(byName).slice(0, deps.config.datasources.datasource_limit).map((d) => toListItem(d, req.user!.orgId)));
}

export async function getDataSourceByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await record(req, await read(req, deps, String(req.params.uid)), true));
}

export async function getDataSourceByID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const uid = await uidById(req, deps, idParam(req, 'id', 'id is invalid'));
  res.json(await record(req, await read(req, deps, uid), true));
}

export async function getDataSourceByName(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const uid = await uidByName(req, deps, String(req.params.name));
  res.json(await record(req, await read(req, deps, uid), false));
}

/** `{id}` of a data source by name: who holds `datasources.id:read` on it (Viewers too) may ask. */
export async function getDataSourceIdByName(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const found = (await allOfOrg(req, deps)).find((d) => d.spec.name === String(req.params.name));
  if (!found) throw notFound();
  if (!(await req.access?.can('datasources.id:read', `datasources:uid:${found.metadata.name}`))) throw notFound();
  res.json({ id: idOf(found) });
}

export async function addDataSource(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = parseDataSourceCommand(req.body, ['type', 'access']);
  const name = cmd.name || freeName(cmd.type!, (await allOfOrg(req, deps)).map((d) => d.spec.name));
  const created = await deps.registry.create(ctxOf(req, deps), KIND, { metadata: { name: cmd.uid || randomUid() }, spec: specOf(cmd, name) });
  res.json({ datasource: await record(req, created, false), id: idOf(created), message: 'Datasource added', name: created.spec.name });
}

/** A PUT by uid or id: the whole record replaced, secure keys it omits kept, `version` (when sent) checked. */
async function update(req: Request, res: Response, deps: AdapterDeps, uid: string): Promise<void> {
  const cmd: DataSourceCommand = parseDataSourceCommand(req.body, ['name', 'type', 'access']);
  // Spec §2.7: the uid cannot be modified.
  if (cmd.uid && cmd.uid !== uid) throw StatusError.badRequest('the uid of a data source cannot be changed');
  const expectedGeneration = cmd.version ? cmd.version : undefined;
  const ds = await deps.registry
    .patch(ctxOf(req, deps), KIND, uid, (current) => ({ ...current, spec: { ...specOf(cmd), readOnly: current.spec.readOnly } }), { expectedGeneration })
    .catch((err: unknown) => {
      throw updateRefusal(err);
    });
  res.json({ datasource: await record(req, ds, false), id: idOf(ds), message: 'Datasource updated', name: ds.spec.name });
}

export const updateDataSourceByUID = (req: Request, res: Response, deps: AdapterDeps) => update(req, res, deps, String(req.params.uid));

export async function updateDataSourceByID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  await update(req, res, deps, await uidById(req, deps, idParam(req, 'id', 'id is invalid')));
}

/** Deletes a data source (its permissions and correlations go with it): its id. */
async function remove(req: Request, deps: AdapterDeps, uid: string): Promise<number> {
  const current = await read(req, deps, uid);
  // The object read, not another one made with its uid since.
  await deps.registry.delete(ctxOf(req, deps), KIND, uid, { preconditions: { uid: current.metadata.uid } });
  // Its plugin's pools and clients go now rather than when a request next finds it gone.
  await deps.dataSources.forget(ctxOf(req, deps).namespace, uid);
  return idOf(current);
}

export async function deleteDataSourceByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = await remove(req, deps, String(req.params.uid));
  res.json({ message: 'Data source deleted', id });
}

/** Deprecated: answers the message only, as the anchor does. */
export async function deleteDataSourceByID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  await remove(req, deps, await uidById(req, deps, idParam(req, 'id', 'Missing valid datasource id')));
  res.json({ message: 'Data source deleted' });
}

export async function deleteDataSourceByName(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = await remove(req, deps, await uidByName(req, deps, String(req.params.name)));
  res.json({ message: 'Data source deleted', id });
}
