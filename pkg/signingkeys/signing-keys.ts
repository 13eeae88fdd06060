import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signingKeyKind } from '../../apis';
import { SECURE_PRIVATE_KEY, type SigningKeySpec } from '../../apis/secret.svc.app/v0alpha1/signingkey';
import { StatusError } from '../errors';
import type { Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';

/** The namespace signing keys live in: one set for the whole server, as the anchor's `signing_key` table. */
export const SIGNING_KEYS_NAMESPACE = 'svc-signing-keys';

/** The only algorithm, as the anchor's: ECDSA over P-256 with SHA-256. */
export const SIGNING_ALGORITHM = 'ES256';

/** A key is published a bit over a month, as the anchor's: tokens signed at the end of its month still verify. */
const LIFETIME_MS = 33 * 24 * 60 * 60 * 1000;

/** One key of the published set: the public half only. */
export interface PublicJwk {
  kty: 'EC';
  use: 'sig';
  kid: string;
  crv: 'P-256';
  alg: typeof SIGNING_ALGORITHM;
  x: string;
  y: string;
}

/** What signs: the key id a token names in its header, and the private key (which never leaves the server). */
export interface Signer {
  kid: string;
  alg: typeof SIGNING_ALGORITHM;
  privateKey: KeyObject;
}

export interface SigningKeysOptions {
  /** The clock (tests move it to the next month). */
  now?: () => Date;
  /** Where the keys are (tests keep sets apart); the server's is {@link SIGNING_KEYS_NAMESPACE}. */
  namespace?: string;
  /** The key id's prefix: `<prefix>-<YYYY-MM>-es256`, the anchor's id token keys by default. */
  prefix?: string;
}

const isCode = (err: unknown, code: number) => err instanceof StatusError && err.code === code;

/**
 * The server's signing keys, as the anchor's `signingkeys` service: one ES256 key a month, named
 * `id-token-<YYYY-MM>-es256`, made by whichever replica needs it first and read by the others (SigningKey objects of a
 * registry that serves that kind, see `internalKinds`). The private key is stored only encrypted (the kind's secure
 * value); the key set publishes every key until it expires, 33 days after it was made.
 *
 * @example
 *   const keys = new SigningKeys(registry.companion(internalKinds));
 *   await keys.jwks(); // { keys: [{ kty: 'EC', use: 'sig', kid: 'id-token-2026-11-es256', crv: 'P-256', alg: 'ES256', x, y }] }
 *   const { kid, privateKey } = await keys.signer(); // sign(null, data, { key: privateKey, dsaEncoding: 'ieee-p1363' })
 */
export class SigningKeys {
  private readonly ctx: RequestContext;
  private readonly now: () => Date;
  private readonly prefix: string;
  /** Private keys decrypted once: a key never changes under its id. */
  private readonly privateKeys = new Map<string, KeyObject>();

  constructor(
    private readonly registry: Registry,
    opts: SigningKeysOptions = {},
  ) {
    this.ctx = { requester: { identity: 'service:signing-keys' }, namespace: opts.namespace ?? SIGNING_KEYS_NAMESPACE, fieldManager: 'signing-keys' };
    this.now = opts.now ?? (() => new Date());
    this.prefix = opts.prefix ?? 'id-token';
  }

  /** The JSON Web Key Set: the public half of every unexpired key, oldest first; this month's key is made if missing. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    await this.registry.init();
    let items = await this.unexpired();
    if (!items.some((k) => k.metadata.name === this.currentId())) {
      await this.current();
      items = await this.unexpired();
    }
    return { keys: items.map(publicJwk) };
  }

  /** The key to sign with now: this month's, made if no replica has made it yet. */
  async signer(): Promise<Signer> {
    await this.registry.init();
    const kid = (await this.current()).metadata.name;
    let privateKey = this.privateKeys.get(kid);
    if (!privateKey) {
      const pem = (await this.registry.secureValues(signingKeyKind, this.ctx.namespace, kid))[SECURE_PRIVATE_KEY];
      if (!pem) throw new Error(`signing key ${kid} has no private key`);
      privateKey = createPrivateKey(pem);
      this.privateKeys.set(kid, privateKey);
    }
    return { kid, alg: SIGNING_ALGORITHM, privateKey };
  }

  /** `id-token-2026-11-es256`: one key a month (UTC). */
  private currentId(): string {
    return `${this.prefix}-${this.now().toISOString().slice(0, 7)}-${SIGNING_ALGORITHM.toLowerCase()}`;
  }

  private async unexpired(): Promise<Resource<SigningKeySpec>[]> {
    const { items } = await this.registry.list(this.ctx, signingKeyKind, {});
    const now = this.now().getTime();
    return items.filter((k) => Date.parse(k.spec.expiresAt) > now).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  }

  /**
   * This month's key, made when missing. Replicas racing here make one key: the name is the key id, so the second
   * create is refused (AlreadyExists) and reads the first's.
   */
  private async current(): Promise<Resource<SigningKeySpec>> {
    const name = this.currentId();
    try {
      return await this.registry.get(this.ctx, signingKeyKind, name);
    } catch (err) {
      if (!isCode(err, 404)) throw err;
    }
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { x, y } = createPublicKey(privateKey).export({ format: 'jwk' });
    const spec: SigningKeySpec = {
      alg: SIGNING_ALGORITHM,
      publicKey: { kty: 'EC', crv: 'P-256', x: x!, y: y! },
      expiresAt: new Date(this.now().getTime() + LIFETIME_MS).toISOString(),
      secure: { [SECURE_PRIVATE_KEY]: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    };
    try {
      return await this.registry.create(this.ctx, signingKeyKind, { metadata: { name }, spec });
    } catch (err) {
      if (!isCode(err, 409)) throw err;
      return this.registry.get(this.ctx, signingKeyKind, name);
    }
  }
}

function publicJwk(key: Resource<SigningKeySpec>): PublicJwk {
  const { x, y } = key.spec.publicKey;
  return { kty: 'EC', use: 'sig', kid: key.metadata.name, crv: 'P-256', alg: SIGNING_ALGORITHM, x, y };
}
