export * from './types';
export * from './kind';
