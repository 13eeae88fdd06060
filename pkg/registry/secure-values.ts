/**
 * What the registry needs of the encryption at rest of kinds' `secureValues` (pkg/secrets' SecretsService is one),
 * given through {@link RegistryOptions.secrets} by the server's composition.
 */
export interface SecureValueCipher {
  /**
   * A synchronous encrypter bound to the active data key, loaded before a write's transaction (inside it the store
   * of keys cannot be read).
   */
  sealer(): Promise<(plaintext: string) => string>;
  decrypt(ciphertext: string): Promise<string>;
}
