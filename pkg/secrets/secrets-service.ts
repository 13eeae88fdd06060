import { type DataKey, deriveKek, type KeyEncryptionKey, newDataKey, open, parseEnvelope, seal, unwrapKey, wrapKey } from './envelope';
import { legacyDecrypt, legacyEncrypt } from './legacy-scheme';

/** A data key as stored: wrapped by the KEK named `kek`. */
export interface StoredDataKey {
  id: string;
  /** base64 of the wrapped key (see wrapKey). */
  wrapped: string;
  /** The id of the key-encryption key that wrapped it (see deriveKek). */
  kek: string;
}

/** Where data keys live: in the database, so that every replica reads the same ones (registry-key-store.ts). */
export interface DataKeyStore {
  /** Every data key, in id order (the last one is the newest). */
  list(): Promise<StoredDataKey[]>;
  get(id: string): Promise<StoredDataKey | undefined>;
  create(key: StoredDataKey): Promise<void>;
  /** Replaces a key's wrapping (the key itself never changes). */
  rewrap(key: StoredDataKey): Promise<void>;
}

/**
 * Something that keeps values encrypted with this service (the registry's `secureValues`, snapshots...):
 * `recrypt` turns one stored ciphertext into its replacement; each value is rewritten on its own (a crash leaves
 * every value in its old or its new form, both readable). Answers how many values it rewrote.
 */
export interface SecretHolder {
  recryptSecrets(recrypt: (ciphertext: string) => Promise<string>): Promise<number>;
}

export interface SecretsOptions {
  /** `security.secret_key`: new data keys are wrapped with the KEK derived from it. */
  secretKey: string;
  /** `security.previous_secret_keys`: earlier secret keys, which still unwrap the data keys they wrapped. */
  previousSecretKeys?: readonly string[];
  keys: DataKeyStore;
  /** How long the active key is used before the store is asked again for a newer one (another replica's rotation). */
  activeKeyTtlMs?: number;
}

/** Why a value does not decrypt (the message names no value). */
export class SecretsError extends Error {}

/**
 * Envelope encryption (AES-256-GCM data keys, each stored wrapped by a KEK derived from `security.secret_key`),
 * with the anchor's four key operations. Unwrapped data keys are cached in process (they never change); a key this
 * process does not know (another replica made it) is read from the store.
 *
 * @example
 *   const secrets = new SecretsService({ secretKey: config.security.secret_key, keys });
 *   const stored = await secrets.encrypt('p4ss'); // '#<key id>#…'
 *   await secrets.decrypt(stored); // 'p4ss'
 */
export class SecretsService {
  private readonly kek: KeyEncryptionKey;
  private readonly keks: ReadonlyMap<string, KeyEncryptionKey>;
  private readonly cache = new Map<string, DataKey>();
  private active?: { key: Promise<DataKey>; until: number };
  private readonly holders: SecretHolder[] = [];
  private readonly activeKeyTtlMs: number;

  constructor(private readonly opts: SecretsOptions) {
    this.kek = deriveKek(opts.secretKey);
    const keks = [this.kek, ...(opts.previousSecretKeys ?? []).filter((s) => s !== '').map(deriveKek)];
    this.keks = new Map(keks.map((k) => [k.id, k]));
    this.activeKeyTtlMs = opts.activeKeyTtlMs ?? 60_000;
  }

  /** Encrypts with the active data key (made on first use). */
  async encrypt(plaintext: string): Promise<string> {
    return (await this.sealer())(plaintext);
  }

  /** Decrypts an envelope, or a value of the legacy scheme (see legacy-scheme.ts). */
  async decrypt(ciphertext: string): Promise<string> {
    const envelope = parseEnvelope(ciphertext);
    if (!envelope) {
      try {
        return legacyDecrypt(ciphertext, this.opts.secretKey);
      } catch {
        throw new SecretsError('the value is neither an envelope nor of the legacy scheme');
      }
    }
    const key = await this.dataKey(envelope.keyId);
    try {
      return open(key.key, envelope.payload, key.id);
    } catch {
      throw new SecretsError(`the value does not decrypt with data key ${key.id}`);
    }
  }

  /**
   * A synchronous encrypter bound to the active data key, loaded now: what a write uses inside its transaction,
   * where it cannot wait for the store.
   */
  async sealer(): Promise<(plaintext: string) => string> {
    const key = await this.activeKey();
    return (plaintext) => seal(key, plaintext);
  }

  /** Registers a holder of encrypted values for {@link reencryptSecrets} and {@link rollbackSecrets}. */
  addHolder(holder: SecretHolder): void {
    this.holders.push(holder);
  }

  /** `rotate-data-keys`: a new data key becomes the active one; earlier ones stay, and keep decrypting. */
  async rotateDataKeys(): Promise<void> {
    const key = await this.createKey();
    this.active = { key: Promise.resolve(key), until: Date.now() + this.activeKeyTtlMs };
  }

  /**
   * `reencrypt-data-keys`: every data key wrapped by another KEK (a previous secret key) is re-wrapped with the
   * current one, one key at a time. A key no configured secret unwraps is left as it is (and named in the error).
   */
  async reencryptDataKeys(): Promise<void> {
    const lost: string[] = [];
    for (const stored of await this.opts.keys.list()) {
      if (stored.kek === this.kek.id) continue;
      const kek = this.keks.get(stored.kek);
      if (!kek) {
        lost.push(stored.id);
        continue;
      }
      const key = unwrapKey(kek, stored.id, stored.wrapped);
      await this.opts.keys.rewrap({ id: key.id, wrapped: wrapKey(this.kek, key), kek: this.kek.id });
      this.cache.set(key.id, key);
    }
    if (lost.length) throw new SecretsError(`no configured secret key unwraps data keys ${lost.join(', ')}`);
  }

  /** `reencrypt-secrets`: every value of every holder encrypted again with the active data key. */
  async reencryptSecrets(): Promise<number> {
    const active = await this.activeKey();
    return this.recryptAll(async (ciphertext) => (parseEnvelope(ciphertext)?.keyId === active.id ? ciphertext : seal(active, await this.decrypt(ciphertext))));
  }

  /** `rollback-secrets`: every value of every holder encrypted again with the legacy scheme (see legacy-scheme.ts). */
  async rollbackSecrets(): Promise<number> {
    return this.recryptAll(async (ciphertext) => (parseEnvelope(ciphertext) ? legacyEncrypt(await this.decrypt(ciphertext), this.opts.secretKey) : ciphertext));
  }

  private async recryptAll(recrypt: (ciphertext: string) => Promise<string>): Promise<number> {
    let n = 0;
    for (const holder of this.holders) n += await holder.recryptSecrets(recrypt);
    return n;
  }

  /** The newest data key, made when there is none; asked again of the store once its time is up. */
  private activeKey(): Promise<DataKey> {
    if (this.active && this.active.until > Date.now()) return this.active.key;
    const key = (async () => {
      const newest = (await this.opts.keys.list()).at(-1);
      return newest ? this.unwrap(newest) : this.createKey();
    })();
    this.active = { key, until: Date.now() + this.activeKeyTtlMs };
    key.catch(() => (this.active = undefined));
    return key;
  }

  private async createKey(): Promise<DataKey> {
    const key = newDataKey();
    await this.opts.keys.create({ id: key.id, wrapped: wrapKey(this.kek, key), kek: this.kek.id });
    this.cache.set(key.id, key);
    return key;
  }

  /** A data key by id: from the cache, else from the store (a key another replica made). */
  private async dataKey(id: string): Promise<DataKey> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const stored = await this.opts.keys.get(id);
    if (!stored) throw new SecretsError(`data key ${id} does not exist`);
    return this.unwrap(stored);
  }

  private unwrap(stored: StoredDataKey): DataKey {
    const cached = this.cache.get(stored.id);
    if (cached) return cached;
    const kek = this.keks.get(stored.kek);
    if (!kek) throw new SecretsError(`data key ${stored.id} was wrapped by a secret key that is not configured (security.secret_key, security.previous_secret_keys)`);
    let key: DataKey;
    try {
      key = unwrapKey(kek, stored.id, stored.wrapped);
    } catch {
      throw new SecretsError(`data key ${stored.id} does not unwrap`);
    }
    this.cache.set(key.id, key);
    return key;
  }
}
