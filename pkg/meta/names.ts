/** Spec §2.1: uids (and so object names) are at most 40 characters. */
export const MAX_OBJECT_NAME_LENGTH = 40;
/** The anchor's uid rules: letters, digits, '-', '_'. */
export const OBJECT_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * Why `name` is not a valid object name, or undefined.
 *
 * @example nameProblem('a b'); // 'Invalid value: "a b": a name must consist of alphanumeric characters, \'-\' or \'_\''
 */
export function nameProblem(name: string): string | undefined {
  if (name.length > MAX_OBJECT_NAME_LENGTH) return `Too long: may not be more than ${MAX_OBJECT_NAME_LENGTH} characters`;
  if (!OBJECT_NAME_PATTERN.test(name)) {
    return `Invalid value: ${JSON.stringify(name)}: a name must consist of alphanumeric characters, '-' or '_'`;
  }
  return undefined;
}
