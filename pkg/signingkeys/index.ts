export { type PublicJwk, type Signer, SIGNING_ALGORITHM, SIGNING_KEYS_NAMESPACE, SigningKeys, type SigningKeysOptions } from './signing-keys';
