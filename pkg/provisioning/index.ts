export { Provisioner, type ProvisionerOptions } from './provisioner';
export type { ApplyDeps } from './provisioner-context';
export { ProvisioningError } from './provisioning-error';
export { interpolate, InterpolationError, type ValueSources } from './values';
export { ONE_DEFAULT, safeUidFromName } from './datasources-config';
