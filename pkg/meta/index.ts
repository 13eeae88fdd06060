export * from './types';
export * from './kind';
export * from './json-equal';
export * from './input-limits';
export type { KindSamples } from './samples';
