import { randomInt } from 'node:crypto';
import { dashboardKind as typedDashboardKind, folderKind as typedFolderKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind, type Resource } from '../../pkg/meta';
import { findByInternalId } from '../shared/deprecated-id';
import type { Registry, RequestContext } from '../../pkg/registry';
import { type SaveAnnotations, type SaveDashboardCommand, toNewDashboard, toUpdatedDashboard } from './dashboards-conversions';
import { dashboardNotFound, folderNotFound, nameExists } from './dashboards-errors';

export const dashboardKind = anyKind(typedDashboardKind);
export const folderKind = anyKind(typedFolderKind);

export { findByInternalId };

/** The folder a save puts the dashboard in: `folderUid`, else the folder numbered `folderId`, else the root (''). */
async function folderOf(registry: Registry, ctx: RequestContext, cmd: SaveDashboardCommand): Promise<string> {
  if (cmd.folderUid) return cmd.folderUid;
  if (!cmd.folderId) return '';
  const folder = await findByInternalId(registry, ctx, folderKind, cmd.folderId);
  if (!folder) throw folderNotFound();
  return folder.metadata.name;
}

/** The dashboard a save with an `id` updates; its `uid`, when sent too, must be that dashboard's. */
async function targetById(registry: Registry, ctx: RequestContext, cmd: SaveDashboardCommand & { id: number }): Promise<string> {
  const found = await findByInternalId(registry, ctx, dashboardKind, cmd.id);
  if (!found) throw dashboardNotFound();
  if (cmd.uid && cmd.uid !== found.metadata.name) {
    const other = await registry.get(ctx, dashboardKind, cmd.uid).catch((err: unknown) => {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    });
    throw other ? nameExists() : dashboardNotFound();
  }
  return found.metadata.name;
}

/** The anchor's generated uids are 14 characters starting with a letter; the registry draws the last 5. */
function generatePrefix(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const alphabet = `${letters}0123456789`;
  let prefix = letters[randomInt(letters.length)];
  for (let i = 0; i < 8; i++) prefix += alphabet[randomInt(alphabet.length)];
  return prefix;
}

export interface SaveOptions {
  /** A restore: the version the saved model comes from. */
  restoredFrom?: number;
}

/**
 * `POST /api/dashboards/db` (spec §4.4) as registry calls: `id` names the dashboard to update, else `uid` the one
 * to create (updated when it exists and `overwrite`), else a new uid is generated. An update without `overwrite` must be made
 * on the stored version: the check runs inside the registry's read-modify-write, so no write slips in between.
 *
 * @example await saveDashboard(registry, ctx, parseSaveCommand(req.body))
 */
export async function saveDashboard(registry: Registry, ctx: RequestContext, cmd: SaveDashboardCommand, opts: SaveOptions = {}): Promise<Resource> {
  // The dashboard kind's strategy raises a short refresh, as for every /apis write.
  const model = cmd.dashboard;
  const annotations: SaveAnnotations = { folderUid: await folderOf(registry, ctx, cmd), message: cmd.message, restoredFrom: opts.restoredFrom };
  // A stale version is the registry's conflict (the area's 412 version-mismatch); no version is never the stored one.
  const update = (name: string, checkVersion: boolean) =>
    registry.patch(ctx, dashboardKind, name, (current) => toUpdatedDashboard(current, model, annotations), checkVersion ? { expectedGeneration: cmd.version ?? 0 } : {});
  if (cmd.id !== undefined) return update(await targetById(registry, ctx, { ...cmd, id: cmd.id }), !cmd.overwrite);
  if (!cmd.uid) return registry.create(ctx, dashboardKind, toNewDashboard(model, { generatePrefix: generatePrefix() }, annotations));
  // Read first: saving over an existing dashboard is an update, which needs write on it and not create in its
  // folder (the anchor's order: an existing uid without overwrite is name-exists, whatever the caller may create).
  if (await dashboardExists(registry, ctx, cmd.uid)) {
    if (!cmd.overwrite) throw nameExists();
    const updated = await update(cmd.uid, false).catch(notFoundAsUndefined);
    if (updated) return updated;
    // Deleted since it was read: the overwrite creates it.
  }
  try {
    return await registry.create(ctx, dashboardKind, toNewDashboard(model, { uid: cmd.uid }, annotations));
  } catch (err) {
    // Created since it was read: the overwrite updates it.
    if (!(err instanceof StatusError && err.reason === 'AlreadyExists' && cmd.overwrite)) throw err;
  }
  return update(cmd.uid, false);
}

function notFoundAsUndefined(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 404) return undefined;
  throw err;
}

/** Whether the dashboard exists: one the caller may not read exists too (its update is then refused, 403). */
export async function dashboardExists(registry: Registry, ctx: RequestContext, name: string): Promise<boolean> {
  try {
    await registry.get(ctx, dashboardKind, name);
    return true;
  } catch (err) {
    if (err instanceof StatusError && err.code === 403) return true;
    if (err instanceof StatusError && err.code === 404) return false;
    throw err;
  }
}
