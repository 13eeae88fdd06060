import { dataKeyKind } from '../../apis';
import type { DataKeySpec } from '../../apis/secret.svc.app/v0alpha1/datakey';
import { StatusError } from '../errors';
import type { Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import type { DataKeyStore, StoredDataKey } from './secrets-service';

/** The namespace data keys live in: one set of keys for the whole server, as the anchor's `data_keys` table. */
export const SECRETS_NAMESPACE = 'svc-secrets';


const toStored = ({ metadata, spec }: Resource<DataKeySpec>): StoredDataKey => ({ id: metadata.name, wrapped: spec.encryptedKey, kek: spec.keyEncryptionKey });

/**
 * Data keys as DataKey objects of a registry that serves that kind (see `internalKinds`), so that they replicate
 * with the database and every replica reads the keys another made.
 *
 * @example new SecretsService({ secretKey, keys: new RegistryKeyStore(new Registry(storage, internalKinds, options)) })
 */
export class RegistryKeyStore implements DataKeyStore {
  private readonly ctx: RequestContext;

  /** `namespace`: where the keys are (tests keep sets apart); the server's is {@link SECRETS_NAMESPACE}. */
  constructor(
    private readonly registry: Registry,
    namespace = SECRETS_NAMESPACE,
  ) {
    this.ctx = { requester: { identity: 'service:secrets' }, namespace, fieldManager: 'secrets' };
  }

  async list(): Promise<StoredDataKey[]> {
    await this.registry.init();
    const { items } = await this.registry.list(this.ctx, dataKeyKind, {});
    return items.map(toStored).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async get(id: string): Promise<StoredDataKey | undefined> {
    await this.registry.init();
    try {
      return toStored(await this.registry.get(this.ctx, dataKeyKind, id));
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  async create(key: StoredDataKey): Promise<void> {
    await this.registry.init();
    await this.registry.create(this.ctx, dataKeyKind, { metadata: { name: key.id }, spec: specOf(key) });
  }

  async rewrap(key: StoredDataKey): Promise<void> {
    await this.registry.init();
    await this.registry.patch(this.ctx, dataKeyKind, key.id, (current) => ({ ...current, spec: specOf(key) }));
  }
}

const specOf = (key: StoredDataKey): DataKeySpec => ({ encryptedKey: key.wrapped, keyEncryptionKey: key.kek });
