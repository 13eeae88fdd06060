export { Registry, type RegistryOptions } from './store';
export type { AccessCheck, DeleteOptions, ListOptions, RequestContext, Requester, WriteOptions } from './context';
export { Compactor } from './compactor';
export type { HistoryOptions, HistoryPage, ObjectVersion } from './history';
