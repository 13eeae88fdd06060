import type { CorrelationSpec } from '../../apis/correlation.svc.app/v1beta1/correlation';
import type { Resource } from '../../pkg/meta';
import { createdSpec, patchedSpec, toCorrelationDTO } from './correlations-conversions';

const config = { field: 'traceID', type: 'query', target: { expr: 'x' } };
const stored = (spec: Record<string, unknown>) =>
  ({ metadata: { name: 'c1' }, spec: { targetUID: '', label: '', description: '', provisioned: false, ...spec } }) as unknown as Resource<CorrelationSpec>;

describe('correlation conversions', () => {
  it('round-trips a create command through the spec to the record', () => {
    const spec = createdSpec('logs', { targetUID: 'traces', label: 'L', description: 'D', config });
    expect(toCorrelationDTO(stored(spec), 2)).toEqual({ uid: 'c1', orgId: 2, sourceUID: 'logs', targetUID: 'traces', label: 'L', description: 'D', provisioned: false, config });
  });

  it('patches only what the command names, config fields one by one', () => {
    const current = createdSpec('logs', { targetUID: 'traces', label: 'L', config }) as unknown as CorrelationSpec;
    expect(patchedSpec(current, { config: { field: 'id' } })).toEqual({ ...current, config: { ...config, field: 'id' } });
    expect(patchedSpec(current, { description: 'new' })).toEqual({ ...current, description: 'new' });
    expect(() => patchedSpec(current, {})).toThrow('At least one of label, description or config is required');
    expect(() => patchedSpec(current, { label: 1 })).toThrow('bad request data');
  });

  it('refuses a create body of wrong types', () => {
    expect(() => createdSpec('logs', { targetUID: 1, config })).toThrow('bad request data');
    expect(() => createdSpec('logs', { targetUID: 'x' })).toThrow('bad request data');
  });
});
