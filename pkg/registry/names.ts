import { randomInt } from 'node:crypto';
import { MAX_OBJECT_NAME_LENGTH, nameProblem, OBJECT_NAME_PATTERN as NAME } from '../meta';

export { nameProblem };
/** Spec §2.1: uids (and so names) are at most 40 characters. */
export const MAX_NAME_LENGTH = MAX_OBJECT_NAME_LENGTH;
const RANDOM_LENGTH = 5;
/** kube-apiserver's alphabet for generated suffixes: no vowels (no words), no look-alikes (0/o, 1/l). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `length` random characters of kube-apiserver's alphabet: a valid name (uid) on its own. */
export function randomName(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** `generateName` + 5 random characters; the prefix is cut so the name fits in 40. */
export function generateName(prefix: string): string {
  return prefix.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH) + randomName(RANDOM_LENGTH);
}

/** Why `prefix` cannot start a generated name, or undefined. */
export function generateNameProblem(prefix: string): string | undefined {
  if (!NAME.test(prefix)) {
    return `Invalid value: ${JSON.stringify(prefix)}: a name prefix must consist of alphanumeric characters, '-' or '_'`;
  }
  return undefined;
}
