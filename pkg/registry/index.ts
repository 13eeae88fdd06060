export { keptVersions, type QuotaGroup, type QuotaLimit, Registry, type RegistryOptions } from './store';
export { Namespaces, type NamespaceScheme, type OrgDirectory, storedOrgs } from './namespaces';
export type { AccessCheck, AccessObject, AccessTarget, DeleteOptions, ListOptions, RequestContext, Requester, WriteOptions } from './context';
export { Compactor } from './compactor';
export { listAcross } from './list-across';
export type { HistoryOptions, HistoryPage, ObjectVersion } from './history';
export { searchFieldsOf, type SearchRequest, type SearchResult } from './search';
export type { SecureValueCipher } from './secure-values';
export type { PageRequest, PageResult } from './paged';
