import { dashboardKind } from '../../apis/dashboard.svc.app/v1beta1/dashboard';
import { folderKind } from '../../apis/folder.svc.app/v1beta1/folder';
import { Annotations, anyKind, isProvisioned, PROVISIONING_MANAGER, ProvisioningAnnotations as PA, type Resource } from '../meta';
import { StatusError } from '../errors';
import type { DashboardFile } from './dashboard-files';
import { stableUid } from './dashboard-files';
import type { DashboardProvider } from './dashboards-config';
import { type ApplyDeps, checksumOf, listAll, provisionerCtx } from './provisioner-context';
import { ProvisioningError } from './provisioning-error';

const DASHBOARDS = anyKind(dashboardKind);
const FOLDERS = anyKind(folderKind);

export interface DashboardsResult {
  written: number;
  deleted: number;
}

/**
 * The folder a provider's dashboards go to: `folderUid` (made with `folder` as its title when missing), else the
 * root folder titled `folder` (made when missing, with a uid every replica computes alike), else the root ('').
 */
async function folderFor(deps: ApplyDeps, p: DashboardProvider, index: number, title: string, uid: string, folders: Resource[]): Promise<string> {
  if (!title && !uid) return '';
  const ctx = provisionerCtx(deps, p.orgId);
  const found = uid ? folders.find((f) => f.metadata.name === uid) : folders.find((f) => !f.metadata.annotations?.[Annotations.folder] && f.spec.title === title);
  if (found) return found.metadata.name;
  const name = uid || stableUid(p.orgId, 'folder', title);
  if (!title) throw new ProvisioningError(p.file, `providers[${index}].folderUid`, `folder "${uid}" not found and no folder title to create it with`);
  try {
    const { object } = await deps.registry.upsert(ctx, FOLDERS, name, (current) => current ?? { metadata: { name }, spec: { title } });
    folders.push(object);
  } catch (err) {
    if (err instanceof StatusError && err.code < 500) throw new ProvisioningError(p.file, `providers[${index}].folder`, err.message);
    throw err;
  }
  return name;
}

/**
 * One provider's files stored: each dashboard created or overwritten when its file changed (an unchanged file
 * leaves the stored dashboard, and a UI save `allowUiUpdates` permits, as they are), in its folder; dashboards of
 * the provider whose file is gone are deleted, or with `disableDeletion` kept and no longer provisioned.
 */
export async function applyProvider(deps: ApplyDeps, p: DashboardProvider, index: number, files: readonly DashboardFile[]): Promise<DashboardsResult> {
  if (!(await deps.orgs.exists(p.orgId))) throw new ProvisioningError(p.file, `providers[${index}].orgId`, `organization ${p.orgId} not found`);
  const ctx = provisionerCtx(deps, p.orgId);
  const result: DashboardsResult = { written: 0, deleted: 0 };
  const folders = await listAll(deps, p.orgId, FOLDERS);
  const base = await folderFor(deps, p, index, p.folder, p.folderUid, folders);
  // What is stored already: a poll of unchanged files reads once and writes nothing (replicas poll too).
  const storedChecksums = new Map((await listAll(deps, p.orgId, DASHBOARDS)).map((d) => [d.metadata.name, d.metadata.annotations?.[PA.checksum]]));
  for (const f of files) {
    const folder = f.folderTitle ? await folderFor(deps, p, index, f.folderTitle, '', folders) : base;
    const checksum = checksumOf(deps.checksumKey, { spec: f.spec, folder, allowUiUpdates: p.allowUiUpdates, provider: p.name, path: f.relative });
    if (storedChecksums.get(f.uid) === checksum) continue;
    let unchanged = false;
    try {
      await deps.registry.upsert(ctx, DASHBOARDS, f.uid, (current) => {
        const a = current?.metadata.annotations ?? {};
        unchanged = a[PA.checksum] === checksum;
        if (unchanged && current) return current;
        const annotations: Record<string, string> = {
          ...a,
          [Annotations.folder]: folder,
          [PA.managedBy]: PROVISIONING_MANAGER,
          [PA.managerId]: p.name,
          [PA.sourcePath]: f.relative,
          [PA.checksum]: checksum,
          [PA.allowsEdits]: String(p.allowUiUpdates),
        };
        if (!folder) delete annotations[Annotations.folder];
        delete annotations[Annotations.message];
        return { metadata: { ...(current ? { labels: current.metadata.labels } : {}), name: f.uid, annotations }, spec: f.spec };
      });
    } catch (err) {
      if (err instanceof StatusError && err.code < 500) throw new ProvisioningError(`${p.options.path}/${f.relative}`, '', err.message);
      throw err;
    }
    if (!unchanged) result.written++;
  }
  const kept = new Set(files.map((f) => f.uid));
  for (const d of await listAll(deps, p.orgId, DASHBOARDS)) {
    const a = d.metadata.annotations;
    if (!isProvisioned(a) || a?.[PA.managerId] !== p.name || kept.has(d.metadata.name)) continue;
    if (p.disableDeletion) await unprovision(deps, p.orgId, d);
    else await remove(deps, p.orgId, d.metadata.name);
    result.deleted++;
  }
  return result;
}

/** Dashboards of providers no configuration declares any more (in these organizations): deleted, as the anchor does. */
export async function removeOrphans(deps: ApplyDeps, providers: readonly DashboardProvider[], orgIds: Iterable<number>): Promise<number> {
  let deleted = 0;
  for (const orgId of orgIds) {
    if (!(await deps.orgs.exists(orgId))) continue;
    const names = new Set(providers.filter((p) => p.orgId === orgId).map((p) => p.name));
    for (const d of await listAll(deps, orgId, DASHBOARDS)) {
      const a = d.metadata.annotations;
      if (isProvisioned(a) && !names.has(a?.[PA.managerId] ?? '')) {
        await remove(deps, orgId, d.metadata.name);
        deleted++;
      }
    }
  }
  return deleted;
}

async function remove(deps: ApplyDeps, orgId: number, name: string): Promise<void> {
  try {
    await deps.registry.delete(provisionerCtx(deps, orgId), DASHBOARDS, name);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
  }
}

/** Kept without its file: an ordinary dashboard from now on (the provisioning annotations go). */
async function unprovision(deps: ApplyDeps, orgId: number, d: Resource): Promise<void> {
  await deps.registry.upsert(provisionerCtx(deps, orgId), DASHBOARDS, d.metadata.name, (current) => {
    if (!current) return { metadata: { name: d.metadata.name }, spec: d.spec };
    const annotations = Object.fromEntries(Object.entries(current.metadata.annotations ?? {}).filter(([k]) => !Object.values(PA).includes(k as never)));
    return { ...current, metadata: { ...current.metadata, annotations } };
  });
}
