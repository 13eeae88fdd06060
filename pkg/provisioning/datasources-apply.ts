import path from 'node:path';
import { dataSourceKind } from '../../apis/datasource.svc.app/v1beta1/datasource';
import { anyKind, isProvisioned, PROVISIONING_MANAGER, ProvisioningAnnotations as PA, type Resource } from '../meta';
import { StatusError } from '../errors';
import type { DataSourceEntry, DataSourcesPlan } from './datasources-config';
import { type ApplyDeps, checksumOf, listAll, provisionerCtx } from './provisioner-context';
import { ProvisioningError } from './provisioning-error';

const KIND = anyKind(dataSourceKind);
const MANAGER_ID = 'datasources';

/** What one apply did, for the log. */
export interface DataSourcesResult {
  created: number;
  updated: number;
  deleted: number;
}

/**
 * Applies a checked plan (datasources-config.ts): `deleteDatasources` first, then every entry created or updated
 * (an unchanged entry is not written again: its digest is stored), then, with `prune`, provisioned data sources no
 * file names any more are deleted. Runs as the provisioner, so read-only data sources change too.
 */
export async function applyDataSources(deps: ApplyDeps, plan: DataSourcesPlan, knownOrgs: Set<number>): Promise<DataSourcesResult> {
  const result: DataSourcesResult = { created: 0, updated: 0, deleted: 0 };
  for (const e of plan.upserts) {
    if (!(await deps.orgs.exists(e.orgId))) throw new ProvisioningError(e.file, `datasources[${e.index}].orgId`, `organization ${e.orgId} not found`);
  }
  const byOrg = new Map<number, Resource[]>();
  const stored = async (orgId: number) => {
    if (!byOrg.has(orgId)) byOrg.set(orgId, await listAll(deps, orgId, KIND));
    return byOrg.get(orgId)!;
  };
  const remove = async (orgId: number, name: string) => {
    try {
      await deps.registry.delete(provisionerCtx(deps, orgId), KIND, name);
      result.deleted++;
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
    byOrg.delete(orgId);
  };
  for (const d of plan.deletes) {
    if (!(await deps.orgs.exists(d.orgId))) continue;
    const found = (await stored(d.orgId)).find((ds) => ds.spec.name === d.name);
    if (found) await remove(d.orgId, found.metadata.name);
  }
  for (const e of plan.upserts) {
    knownOrgs.add(e.orgId);
    const same = (await stored(e.orgId)).find((ds) => ds.spec.name === e.name);
    // The file gave it another uid (names are uids here, and never change): the old one goes.
    if (same && same.metadata.name !== e.uid) await remove(e.orgId, same.metadata.name);
    let written;
    try {
      written = await upsert(deps, e);
    } catch (err) {
      // What the kind refuses of an entry is the file's to fix, as its format is.
      if (err instanceof StatusError && err.code < 500) throw new ProvisioningError(e.file, `datasources[${e.index}]`, err.message);
      throw err;
    }
    if (written) result[written]++;
    if (written) byOrg.delete(e.orgId);
  }
  if (plan.prune) {
    const wanted = new Set(plan.upserts.map((e) => `${e.orgId}/${e.uid}`));
    for (const orgId of knownOrgs) {
      if (!(await deps.orgs.exists(orgId))) continue;
      for (const ds of await stored(orgId)) {
        const mine = isProvisioned(ds.metadata.annotations) && ds.metadata.annotations?.[PA.managerId] === MANAGER_ID;
        if (mine && !wanted.has(`${orgId}/${ds.metadata.name}`)) await remove(orgId, ds.metadata.name);
      }
    }
  }
  return result;
}

/** One entry written, unless the stored data source already holds what the file says. */
async function upsert(deps: ApplyDeps, e: DataSourceEntry): Promise<'created' | 'updated' | undefined> {
  const { file: _file, index: _index, uid, orgId: _org, editable, version: _version, jsonData, secureJsonData, ...fields } = e;
  const checksum = checksumOf(deps.checksumKey, { ...fields, uid, editable, jsonData, secureJsonData, orgId: e.orgId });
  let unchanged = false;
  const { object, created } = await deps.registry.upsert(provisionerCtx(deps, e.orgId), KIND, uid, (current) => {
    const a = current?.metadata.annotations ?? {};
    unchanged = a[PA.checksum] === checksum;
    // The file holds every secret: keys it no longer names are removed ("" removes a secure value).
    const dropped = Object.keys((current?.spec.secureJsonFields as Record<string, boolean> | undefined) ?? {}).filter((k) => !(k in (secureJsonData ?? {})));
    const secrets = { ...Object.fromEntries(dropped.map((k) => [k, ''])), ...(secureJsonData ?? {}) };
    if (unchanged) return current;
    return {
      metadata: {
        name: uid,
        annotations: { ...a, [PA.managedBy]: PROVISIONING_MANAGER, [PA.managerId]: MANAGER_ID, [PA.sourcePath]: path.basename(e.file), [PA.checksum]: checksum },
      },
      spec: { ...fields, jsonData: jsonData ?? null, ...(Object.keys(secrets).length ? { secureJsonData: secrets } : {}), readOnly: !editable },
    };
  });
  if (created) return 'created';
  return unchanged || !object ? undefined : 'updated';
}
