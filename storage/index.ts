export * from './types';
export { embeddedImage, openStorage, type StorageOptions } from './open-storage';
export { ScopedReads } from './scoped-reads';
