import { internalKinds } from '../../apis';
import type { Config } from '../config';
import { type Namespaces, Registry } from '../registry';
import type { Storage } from '../../storage';
import { RegistryKeyStore } from './registry-key-store';
import { SecretsService } from './secrets-service';

/**
 * The server's secrets service from its configuration (`security.secret_key`, `security.previous_secret_keys`),
 * its data keys stored as DataKey objects on `storage`.
 *
 * @example const secrets = openSecrets(config.security, storage, registry.namespaces);
 */
export function openSecrets(security: Config['security'], storage: Storage, namespaces: Namespaces): SecretsService {
  const keys = new RegistryKeyStore(new Registry(storage, internalKinds, { nestedFolders: false, namespaces }));
  return new SecretsService({ secretKey: security.secret_key, previousSecretKeys: security.previous_secret_keys, keys });
}
