import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as DataKey objects. */
export const samples: KindSamples = {
  spec: () => ({ encryptedKey: 'c2FtcGxl', keyEncryptionKey: '0123456789abcdef' }),
  changed: () => ({ encryptedKey: 'Y2hhbmdlZA==', keyEncryptionKey: '0123456789abcdef' }),
  invalid: { encryptedKey: 'c2FtcGxl', keyEncryptionKey: 'nope' },
  invalidField: 'spec.keyEncryptionKey',
};
