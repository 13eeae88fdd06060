import type { StatusCause } from '../../../../pkg/errors';
import type { KindStrategy, Resource } from '../../../../pkg/meta';
import type { SnapshotSpec } from './snapshot-schema';

/** Label: the key, to find a snapshot by it in any organization. */
export const KEY_LABEL = 'svc.app/snapshot-key';
/** Label: the expiry in Unix seconds, derived from `spec.expires`, so the sweeper selects expired snapshots (`<`). */
export const EXPIRES_LABEL = 'svc.app/snapshot-expires';
/** Label: the start of the delete key's digest, derived from `spec.deleteKeyDigest`, to find a snapshot by its delete key. */
export const DELETE_KEY_LABEL = 'svc.app/snapshot-delete-key';
const LABEL_DIGEST_LENGTH = 48;

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A key or delete key as the anchor makes them: 32 characters drawn uniformly from [0-9A-Za-z] by a CSPRNG (the
 * platform's Web Crypto, so the kind needs no module of its own; values past the last multiple of 62 are redrawn).
 */
export function randomSnapshotKey(): string {
  let out = '';
  const limit = Math.floor(0x100000000 / ALPHANUMERIC.length) * ALPHANUMERIC.length;
  while (out.length < 32) {
    for (const v of globalThis.crypto.getRandomValues(new Uint32Array(40))) if (v < limit && out.length < 32) out += ALPHANUMERIC[v % ALPHANUMERIC.length];
  }
  return out;
}

/** The label value that finds the snapshot whose delete key has the (hex SHA-256) digest `digest`. */
export const deleteKeyLabel = (digest: string): string => digest.slice(0, LABEL_DIGEST_LENGTH);

/** Unix seconds of `spec.expires`; undefined for a snapshot that never expires. */
export function expiresAt(spec: Pick<SnapshotSpec, 'expires'>): number | undefined {
  return spec.expires === undefined ? undefined : Math.floor(Date.parse(spec.expires) / 1000);
}

/** Whether a snapshot has expired at `now` (ms): expired ones read as missing before the sweeper deletes them. */
export function isExpired(spec: Pick<SnapshotSpec, 'expires'>, now = Date.now()): boolean {
  const at = expiresAt(spec);
  return at !== undefined && at * 1000 <= now;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The rules of a snapshot whichever API writes it: a key is generated when none is given and never changes; the
 * labels the server finds it by are derived from the spec (a client cannot make them disagree); an update that
 * names no key or delete key keeps the stored ones.
 */
export const snapshotStrategy: KindStrategy<SnapshotSpec> = {
  prepareForCreate(obj) {
    if (isObject(obj.spec) && obj.spec.key === undefined) obj.spec.key = randomSnapshotKey();
  },
  prepareForUpdate(obj, old) {
    if (!isObject(obj.spec)) return;
    obj.spec.key ??= old.spec.key;
    if (obj.spec.deleteKeyDigest === undefined && old.spec.deleteKeyDigest !== undefined) obj.spec.deleteKeyDigest = old.spec.deleteKeyDigest;
  },
  validate(obj, old): StatusCause[] {
    if (old && obj.spec.key !== old.spec.key) return [{ field: 'spec.key', reason: 'FieldValueInvalid', message: 'Invalid value: field is immutable' }];
    return [];
  },
  canonicalize(obj: Resource<SnapshotSpec>) {
    const labels = { ...(obj.metadata.labels ?? {}) };
    for (const label of [KEY_LABEL, EXPIRES_LABEL, DELETE_KEY_LABEL]) delete labels[label];
    if (obj.spec.key) labels[KEY_LABEL] = obj.spec.key;
    const at = expiresAt(obj.spec);
    if (at !== undefined) labels[EXPIRES_LABEL] = String(at);
    if (obj.spec.deleteKeyDigest) labels[DELETE_KEY_LABEL] = deleteKeyLabel(obj.spec.deleteKeyDigest);
    obj.metadata.labels = labels;
  },
};
