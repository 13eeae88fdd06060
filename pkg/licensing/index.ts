export { LICENSING_NAMESPACE, Licensing, type LicensingOptions, type RenewalStats } from './licensing';
export { LICENSE_ALGORITHMS, type LicenseClaims, LicenseTokenError, sameInstance, tokenView, verifyLicenseToken } from './license-token';
