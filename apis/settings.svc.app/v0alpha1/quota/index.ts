import type { KindRegistration } from '../../../../pkg/meta';
import { type QuotaSpec, quotaSpecSchema } from './quota-schema';

export type { QuotaSpec } from './quota-schema';

/**
 * Quota, `settings.svc.app/v0alpha1`: a quota limit kept in the database (pkg/quotas StoredQuotas) over the
 * `[quota]` setting, so every replica enforces the limit an admin set; not served under /apis. The registry's quota
 * check reads it in the creating transaction (RegistryOptions.quotas `stored`).
 */
export const quotaKind = {
  group: 'settings.svc.app',
  version: 'v0alpha1',
  kind: 'Quota',
  plural: 'quotas',
  singular: 'quota',
  specSchema: quotaSpecSchema,
  deleteResponse: 'status',
} satisfies KindRegistration<QuotaSpec>;
