import { randomInt } from 'node:crypto';

/** Spec §2.1: uids (and so names) are at most 40 characters. */
export const MAX_NAME_LENGTH = 40;
const RANDOM_LENGTH = 5;
/** kube-apiserver's alphabet for generated suffixes: no vowels (no words), no look-alikes (0/o, 1/l). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const NAME = /^[A-Za-z0-9_-]+$/;

/** `generateName` + 5 random characters; the prefix is cut so the name fits in 40. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return prefix.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH) + suffix;
}

/** Why `name` is not a valid object name, or undefined. The anchor's uid rules: letters, digits, '-', '_'. */
export function nameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return `Too long: may not be more than ${MAX_NAME_LENGTH} characters`;
  if (!NAME.test(name)) {
    return `Invalid value: ${JSON.stringify(name)}: a name must consist of alphanumeric characters, '-' or '_'`;
  }
  return undefined;
}

/** Why `prefix` cannot start a generated name, or undefined. */
export function generateNameProblem(prefix: string): string | undefined {
  if (!NAME.test(prefix)) {
    return `Invalid value: ${JSON.stringify(prefix)}: a name prefix must consist of alphanumeric characters, '-' or '_'`;
  }
  return undefined;
}
