import type { KindRegistration } from '../../../../pkg/meta';
import { type LicenseSpec, licenseSpecSchema } from './license-schema';

export { type LicenseSpec, SECURE_LICENSE_TOKEN } from './license-schema';

/**
 * License, `settings.svc.app/v0alpha1`: the enterprise edition's license (pkg/licensing), one object named `license`
 * in the installation-wide namespace `svc-licensing`, so every replica sees the license any of them installed; not
 * served under /apis. The token is a secure value: encrypted at rest, never in an answer, a watch event or history.
 */
export const licenseKind = {
  group: 'settings.svc.app',
  version: 'v0alpha1',
  kind: 'License',
  plural: 'licenses',
  singular: 'license',
  specSchema: licenseSpecSchema,
  deleteResponse: 'status',
  secureValues: [{ path: 'spec.secure', reportAs: 'spec.secureFields' }],
} satisfies KindRegistration<LicenseSpec>;
