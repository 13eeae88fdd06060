import type { RecordingRuleSpec } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrule';
import type { RecordingRuleWriterSpec } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrulewriter';

/**
 * The anchor's RecordingRuleJSON and PrometheusRemoteWriteTargetJSON, and the kinds' specs (pure). A rule's `id` is
 * its object name (its numeric id, as a string); the writer's is the object's uid. `labels` is ours.
 */

export interface RecordingRuleJSON {
  id: string;
  name: string;
  description: string;
  active: boolean;
  count: boolean;
  interval: number;
  range: number;
  dest_data_source_uid: string;
  prom_name: string;
  target_ref_id: string;
  queries: Record<string, unknown>[];
  labels: Record<string, string>;
}

export interface PrometheusRemoteWriteTargetJSON {
  id: string;
  data_source_uid: string;
  remote_write_path: string;
}

/** The JSON field of each spec field, for error messages in the anchor's terms. */
export const JSON_FIELD: Readonly<Record<string, string>> = {
  title: 'name',
  destDataSourceUid: 'dest_data_source_uid',
  promName: 'prom_name',
  targetRefId: 'target_ref_id',
  dataSourceUid: 'data_source_uid',
  remoteWritePath: 'remote_write_path',
};

export function ruleToJSON(name: string, s: RecordingRuleSpec): RecordingRuleJSON {
  return {
    id: name,
    name: s.title,
    description: s.description,
    active: s.active,
    count: s.count,
    interval: s.interval,
    range: s.range,
    dest_data_source_uid: s.destDataSourceUid,
    prom_name: s.promName,
    target_ref_id: s.targetRefId,
    queries: s.queries,
    labels: s.labels,
  };
}

/** The spec a body describes; members it omits are left out (the schema's defaults, or the stored values on update). */
export function ruleFromJSON(b: Partial<Omit<RecordingRuleJSON, 'id'>>): Partial<RecordingRuleSpec> {
  const spec: Partial<RecordingRuleSpec> = {
    title: b.name,
    description: b.description,
    active: b.active,
    count: b.count,
    interval: b.interval,
    range: b.range,
    destDataSourceUid: b.dest_data_source_uid,
    promName: b.prom_name,
    targetRefId: b.target_ref_id,
    queries: b.queries,
    labels: b.labels,
  };
  for (const k of Object.keys(spec) as (keyof RecordingRuleSpec)[]) if (spec[k] === undefined) delete spec[k];
  return spec;
}

export function writerToJSON(uid: string, s: RecordingRuleWriterSpec): PrometheusRemoteWriteTargetJSON {
  return { id: uid, data_source_uid: s.dataSourceUid, remote_write_path: s.remoteWritePath };
}

export function writerFromJSON(b: { data_source_uid?: string; remote_write_path?: string }): Partial<RecordingRuleWriterSpec> {
  return { dataSourceUid: b.data_source_uid, ...(b.remote_write_path !== undefined && b.remote_write_path !== '' ? { remoteWritePath: b.remote_write_path } : {}) };
}
