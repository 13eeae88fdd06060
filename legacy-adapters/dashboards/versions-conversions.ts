import { Annotations, type JsonObject, type Resource } from '../../pkg/meta';
import { legacyIdOf, toDashboardModel, writeOf } from './dashboards-conversions';

/** A dashboard version record (spec §2.13); `data` only when one version is read. */
export interface DashboardVersionMeta {
  id: number;
  dashboardId: number;
  uid: string;
  parentVersion: number;
  restoredFrom: number;
  version: number;
  created: string;
  createdBy: string;
  message: string;
  data?: JsonObject;
}

/**
 * One version of the registry's history as the legacy record: its id is the resourceVersion of the write that
 * made it, its author and time that write's.
 */
export function toVersionMeta(version: Resource, nameOf: (identity: string) => string, withData = false): DashboardVersionMeta {
  const a = version.metadata.annotations ?? {};
  const write = writeOf(version);
  return {
    id: Number(version.metadata.resourceVersion),
    dashboardId: legacyIdOf(version),
    uid: version.metadata.name,
    parentVersion: version.metadata.generation - 1,
    restoredFrom: Number(a[Annotations.restoredFrom] ?? 0),
    version: version.metadata.generation,
    created: write.at,
    createdBy: nameOf(write.by),
    message: a[Annotations.message] ?? '',
    ...(withData ? { data: toDashboardModel(version) } : {}),
  };
}

/** The anchor's words for a restore, kept as the new version's message. */
export const restoreMessage = (version: number) => `Restored from version ${version}`;
