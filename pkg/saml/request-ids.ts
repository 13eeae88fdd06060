import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CacheProvider } from '@node-saml/node-saml';

const TIME_BYTES = 6;
const RANDOM_BYTES = 16;
const MAC_BYTES = 16;

/**
 * The IDs of the AuthnRequests and LogoutRequests the server sends, made so that any replica can tell, from the ID
 * alone, that it issued it and when: `_` + base64url(issue time, 16 random bytes, an HMAC of both under a key from
 * `security.secret_key`). A response's InResponseTo is checked against them with no state shared between replicas
 * and no cookie (a cross-site POST from the identity provider carries no SameSite=Lax cookie). The `_` makes the ID
 * an XML NCName, as SAML requires.
 *
 * @example
 *   const ids = new RequestIds(config.security.secret_key, 90_000);
 *   const id = ids.next();
 *   ids.issuedAt(id); // the time it was made, for 90 s; undefined for an ID another key made, or later
 */
export class RequestIds {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secret).update('svc saml request id').digest();
  }

  next(): string {
    const body = Buffer.alloc(TIME_BYTES + RANDOM_BYTES);
    body.writeUIntBE(this.now(), 0, TIME_BYTES);
    randomBytes(RANDOM_BYTES).copy(body, TIME_BYTES);
    return `_${Buffer.concat([body, this.mac(body)]).toString('base64url')}`;
  }

  /** When `id` was issued, if this server's key made it and it is younger than the maximum age. */
  issuedAt(id: string): number | undefined {
    if (!/^_[A-Za-z0-9_-]{40,80}$/.test(id)) return undefined;
    const raw = Buffer.from(id.slice(1), 'base64url');
    if (raw.length !== TIME_BYTES + RANDOM_BYTES + MAC_BYTES) return undefined;
    const body = raw.subarray(0, TIME_BYTES + RANDOM_BYTES);
    if (!timingSafeEqual(raw.subarray(TIME_BYTES + RANDOM_BYTES), this.mac(body))) return undefined;
    const at = body.readUIntBE(0, TIME_BYTES);
    const age = this.now() - at;
    return age >= -60_000 && age < this.maxAgeMs ? at : undefined;
  }

  /**
   * node-saml's request cache over these IDs: nothing is saved or removed, and an ID is "found" (with its issue
   * time, which node-saml compares with its own expiry) when {@link issuedAt} accepts it.
   */
  cacheProvider(): CacheProvider {
    return {
      saveAsync: async (_key, value) => ({ value, createdAt: this.now() }),
      getAsync: async (key) => {
        const at = this.issuedAt(key);
        return at === undefined ? null : new Date(at).toISOString();
      },
      removeAsync: async (key) => key,
    };
  }

  private mac(body: Buffer): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }
}
