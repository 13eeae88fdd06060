export { identityQuotas, objectQuotas, QUOTA_TARGETS, type QuotaScope, type QuotaTarget } from './quota-targets';
export { StoredQuotas, storedOrgLimit, storedUserLimit } from './stored-quotas';
