import { defaultConfig } from '../config';
import { objectQuotas } from './quota-targets';

describe('objectQuotas', () => {
  it('gives no entry while quotas are disabled: a create then counts nothing and reads no stored limit', () => {
    const config = defaultConfig();
    expect(config.quota.enabled).toBe(false);
    expect(objectQuotas(config)).toEqual({});
  });

  it('gives the settings\' limits once enabled, a stored limit of the organization first for dashboards and data sources', () => {
    const config = defaultConfig();
    const quotas = objectQuotas({ ...config, quota: { ...config.quota, enabled: true, org_dashboard: 7, global_dashboard: -1, org_data_source: 3, global_correlations: 20 } });
    expect(quotas['dashboards.dashboard.svc.app']).toMatchObject({ perNamespace: 7, global: -1 });
    expect(typeof quotas['dashboards.dashboard.svc.app']?.stored).toBe('function');
    expect(quotas['datasources.datasource.svc.app']).toMatchObject({ perNamespace: 3 });
    expect(typeof quotas['datasources.datasource.svc.app']?.stored).toBe('function');
    expect(Object.values(quotas).map((q) => q.global)).toContain(20);
  });
});
