export * from './types';
export * from './kind';
export * from './json-equal';
export * from './input-limits';
export * from './ids';
export * from './names';
export type { KindSamples } from './samples';
export * from './provisioning';
export * from './extend';
