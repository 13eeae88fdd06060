import { StatusError } from '../../../../pkg/errors';
import type { KindStrategy } from '../../../../pkg/meta';
import type { CorrelationSpec } from './correlation-schema';

/** Labels naming a correlation's data sources: what a data source's delete finds its correlations by. */
export const CORRELATION_LABELS = { source: 'correlation.svc.app/source', target: 'correlation.svc.app/target' } as const;

export const PROVISIONED_CORRELATION = 'Correlation can only be edited via provisioning';

/** A query correlation names its target; the labels follow the spec; provisioned ones are left to provisioning. */
export const correlationStrategy: KindStrategy<CorrelationSpec> = {
  validate(obj) {
    if (obj.spec.config.type === 'query' && !obj.spec.targetUID) return [{ field: 'spec.targetUID', reason: 'FieldValueRequired', message: 'targetUID is required for a query correlation' }];
    return [];
  },
  canonicalize(obj) {
    const { [CORRELATION_LABELS.source]: _s, [CORRELATION_LABELS.target]: _t, ...others } = obj.metadata.labels ?? {};
    obj.metadata.labels = {
      ...others,
      [CORRELATION_LABELS.source]: obj.spec.sourceUID,
      ...(obj.spec.targetUID ? { [CORRELATION_LABELS.target]: obj.spec.targetUID } : {}),
    };
  },
  refuseChange(current) {
    if (!current.spec.provisioned) return undefined;
    return new StatusError(403, 'Forbidden', PROVISIONED_CORRELATION, { name: current.metadata.name, group: 'correlation.svc.app', kind: 'correlations' });
  },
};
