import type { KindRegistration } from '../../../../pkg/meta';
import { type RecordingRuleSpec, recordingRuleSpecSchema } from './recordingrule-schema';

export { LABEL_NAME, MAX_INTERVAL_SECONDS, METRIC_NAME, queryDataSourceUid, type RecordingRuleSpec, recordingRuleSpecSchema, refIdOf } from './recordingrule-schema';

/**
 * The annotation of the last interval a replica claimed for evaluation (pkg/recording-rules): the start of that
 * interval, epoch ms (the evaluation time rounded down to a multiple of the interval). Written with the resourceVersion read as precondition, so of replicas
 * racing for one slot exactly one writes it, and only that one evaluates.
 */
export const CLAIMED_SLOT_ANNOTATION = 'recordingrules.svc.app/claimed-slot';

/**
 * RecordingRule, `recordingrules.svc.app/v0alpha1` (the enterprise edition's recorded queries): one per rule, in its
 * organization's namespace, named by its numeric id (the legacy `id`). Not served under /apis: its client is
 * `/api/recording-rules` (legacy-adapters/recording-rules), guarded by the org Admin role there.
 */
export const recordingRuleKind = {
  group: 'recordingrules.svc.app',
  version: 'v0alpha1',
  kind: 'RecordingRule',
  plural: 'recordingrules',
  singular: 'recordingrule',
  specSchema: recordingRuleSpecSchema,
  deleteResponse: 'status',
  internalIds: 'name',
  printerColumns: [
    { name: 'Metric', type: 'string', jsonPath: '.spec.promName' },
    { name: 'Interval', type: 'integer', jsonPath: '.spec.interval' },
    { name: 'Active', type: 'boolean', jsonPath: '.spec.active' },
  ],
} satisfies KindRegistration<RecordingRuleSpec>;
