export { openSecrets } from './open-secrets';
export { RegistryKeyStore, SECRETS_NAMESPACE } from './registry-key-store';
export { type DataKeyStore, type SecretHolder, SecretsError, SecretsService, type SecretsOptions, type StoredDataKey } from './secrets-service';
