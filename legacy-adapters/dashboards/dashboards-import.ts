import type { Request, Response } from 'express';
import { libraryPanelKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { Annotations, anyKind, type JsonObject, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import { type AdapterDeps, findByInternalId, legacyError, requestContext } from '../shared';
import { libraryElementErrors } from '../library-elements/library-elements-conversions';
import { folderUidOf, legacyIdOf, toPostDashboardResponse } from './dashboards-conversions';
import {
  evaluateTemplate,
  type ImportDashboardResponse,
  type ImportedElement,
  LibraryPanelHeader,
  libraryPanelsOf,
  parseImportRequest,
} from './dashboards-import-conversions';
import { nameExists } from './dashboards-errors';
import { dashboardExists, folderKind, saveDashboard } from './dashboards-save';

const ELEMENTS = anyKind(libraryPanelKind);

/** The library element `uid` as the caller reads it; undefined when there is none (a hidden one is the caller's 403). */
async function existingElement(registry: Registry, ctx: RequestContext, uid: string): Promise<Resource | undefined> {
  try {
    return await registry.get(ctx, ELEMENTS, uid);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw legacyError(libraryElementErrors, err);
  }
}

const elementBody = (e: ImportedElement, folderUid: string): JsonObject => ({
  metadata: { name: e.uid, ...(folderUid ? { annotations: { [Annotations.folder]: folderUid } } : {}) },
  spec: { name: e.name, kind: e.kind, model: e.model },
});

/**
 * `POST /api/dashboards/import` (the anchor's dashboard import): the exported dashboard with its `__inputs`
 * answered by `inputs`, saved as `POST /api/dashboards/db` saves (no `id`: the uid decides, `overwrite` replaces),
 * after the library panels it names that do not exist yet are created from its `__elements`, in the import's folder.
 *
 * Bad input changes nothing: the body, the inputs, the panel headers, the uid (name-exists) and every element to
 * create (a dry run: permissions, names, folder) are checked before the first write; should the dashboard's save
 * still fail, the elements this import created are deleted again.
 */
export async function importDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { registry } = deps;
  const ctx = requestContext(req, registry);
  const body = parseImportRequest(req.body);
  const evaluated = evaluateTemplate(body.dashboard, body.inputs ?? []);
  const { id: _id, version: _version, uid, __elements: _elements, ...model } = evaluated;
  const dashboardUid = typeof uid === 'string' && uid !== '' ? uid : undefined;
  if (dashboardUid && !body.overwrite && (await dashboardExists(registry, ctx, dashboardUid))) throw nameExists();

  const folderUid = await importFolder(registry, ctx, body);
  const missing: ImportedElement[] = [];
  for (const panel of libraryPanelsOf(evaluated)) {
    if (await existingElement(registry, ctx, panel.uid)) continue;
    if (!panel.element?.name) throw StatusError.badRequest(LibraryPanelHeader.nameMissing);
    missing.push(panel.element);
  }
  const createElement = (e: ImportedElement, dryRun: boolean) =>
    registry.create(ctx, ELEMENTS, elementBody(e, folderUid), { dryRun }).catch((err: unknown) => {
      throw legacyError(libraryElementErrors, err);
    });
  for (const e of missing) await createElement(e, true);

  // From here a failure (an element created meanwhile by someone else, a save the checks above could not foresee)
  // deletes again what this import created.
  const created: string[] = [];
  let saved: Resource;
  try {
    for (const e of missing) created.push((await createElement(e, false)).metadata.name);
    saved = await saveDashboard(registry, ctx, { dashboard: model as JsonObject, uid: dashboardUid, folderUid: folderUid || undefined, overwrite: body.overwrite ?? false, message: '' });
  } catch (err) {
    for (const name of created) await registry.delete(ctx, ELEMENTS, name).catch(() => undefined);
    throw err;
  }
  res.json(await toImportResponse(registry, ctx, saved, body));
}

/** The folder uid the import goes to: `folderUid`, else the folder numbered `folderId`, else the root (''). */
async function importFolder(registry: Registry, ctx: RequestContext, body: { folderUid?: string; folderId?: number }): Promise<string> {
  if (body.folderUid) {
    await registry.get(ctx, folderKind, body.folderUid).catch((err: unknown) => {
      if (err instanceof StatusError && err.code === 404) throw StatusError.badRequest('folder not found');
      throw err;
    });
    return body.folderUid;
  }
  if (!body.folderId) return '';
  const folder = await findByInternalId(registry, ctx, folderKind, body.folderId);
  if (!folder) throw StatusError.badRequest('folder not found');
  return folder.metadata.name;
}

async function toImportResponse(registry: Registry, ctx: RequestContext, saved: Resource, body: { path?: string }): Promise<ImportDashboardResponse> {
  const post = toPostDashboardResponse(saved);
  const folderUid = folderUidOf(saved);
  const folderId = folderUid ? legacyIdOf(await registry.get(ctx, folderKind, folderUid)) : 0;
  const revision = typeof saved.spec.revision === 'number' && Number.isSafeInteger(saved.spec.revision) ? saved.spec.revision : 0;
  return {
    uid: post.uid,
    pluginId: '',
    title: String(saved.spec.title ?? ''),
    path: body.path ?? '',
    revision,
    description: '',
    folderId,
    folderUid,
    imported: true,
    importedUri: `db/${post.slug}`,
    importedUrl: post.url,
    importedRevision: revision,
    removed: false,
    dashboardId: post.id,
    slug: post.slug,
  };
}
