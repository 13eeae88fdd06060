import { createHash, timingSafeEqual } from 'node:crypto';

/** What a snapshot stores of its delete key: the hex SHA-256 (the key itself is shown once, in the create answer). */
export const deleteKeyDigest = (deleteKey: string): string => createHash('sha256').update(deleteKey, 'utf8').digest('hex');

/** Whether `deleteKey` is the key whose digest is `digest`, compared in constant time. */
export function deleteKeyMatches(deleteKey: string, digest: string | undefined): boolean {
  if (typeof digest !== 'string') return false;
  const a = Buffer.from(deleteKeyDigest(deleteKey));
  const b = Buffer.from(digest);
  return a.length === b.length && timingSafeEqual(a, b);
}
