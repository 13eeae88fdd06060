import { createHash, randomInt } from 'node:crypto';

/**
 * A label value standing for any string (label values are short and restricted): 40 hex digits of its sha256.
 *
 * @example
 *   `svc.app/role-key=${labelKey(roleUid)}`
 */
export function labelKey(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 40);
}

const UID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 14 random letters and digits, as the anchor's generated uids; the first is a letter, so a uid never reads as a
 * numeric id (the legacy API takes either in a path).
 *
 * @example
 *   randomUid(); // 'k3v9q0x1m2b7c4'
 */
export function randomUid(): string {
  let s = UID_ALPHABET[randomInt(26)];
  for (let i = 1; i < 14; i++) s += UID_ALPHABET[randomInt(UID_ALPHABET.length)];
  return s;
}
