import type { KindRegistration } from '../../../../pkg/meta';
import { type RecordingRuleWriterSpec, recordingRuleWriterSpecSchema } from './recordingrulewriter-schema';

export { DEFAULT_REMOTE_WRITE_PATH, type RecordingRuleWriterSpec, recordingRuleWriterSpecSchema } from './recordingrulewriter-schema';

/** The one writer of an organization is this object of its namespace. */
export const WRITER_NAME = 'remote-write-target';

/**
 * RecordingRuleWriter, `recordingrules.svc.app/v0alpha1`: an organization's Prometheus remote write target, one per
 * namespace (named {@link WRITER_NAME}). Not served under /apis: its client is `/api/recording-rules/writer`.
 */
export const recordingRuleWriterKind = {
  group: 'recordingrules.svc.app',
  version: 'v0alpha1',
  kind: 'RecordingRuleWriter',
  plural: 'recordingrulewriters',
  singular: 'recordingrulewriter',
  specSchema: recordingRuleWriterSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Data source', type: 'string', jsonPath: '.spec.dataSourceUid' },
    { name: 'Path', type: 'string', jsonPath: '.spec.remoteWritePath' },
  ],
} satisfies KindRegistration<RecordingRuleWriterSpec>;
