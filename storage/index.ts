export * from './types';
export { openStorage, type StorageOptions } from './open-storage';
export { ScopedReads } from './scoped-reads';
