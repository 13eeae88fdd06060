import { StatusError } from '../errors';
import { textProblem } from '../meta';

/**
 * Continue tokens are public API: base64url JSON in kube-apiserver's own form,
 * `{"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<last name>\u0000"}`, so a later page resumes after
 * the last name at the first page's version. Decoding validates everything: a forged token is a 400, never a 500.
 *
 * @example
 *   const token = encodeContinue(1700000000000000, 'abc');
 *   decodeContinue(token); // { resourceVersion: 1700000000000000, after: 'abc' }
 */
const VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  resourceVersion: number;
  /** Resume with names strictly greater than this one. */
  after: string;
}

export function encodeContinue(resourceVersion: number, lastName: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv: resourceVersion, start: `${lastName}\u0000` })).toString('base64url');
}

export function decodeContinue(token: string): ContinuePosition {
  const invalid = (why: string) => StatusError.badRequest(`continue key is not valid: ${why}`);
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(token)) throw invalid('not base64url encoded');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a JSON document');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('not a JSON object');
  const { v, rv, start } = parsed as Record<string, unknown>;
  if (v !== VERSION) throw invalid(`incorrect encoded start resourceVersion (version ${VERSION})`);
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv <= 0) throw invalid('invalid resourceVersion');
  if (typeof start !== 'string' || !start.endsWith('\u0000') || start.length < 2) throw invalid('invalid start key');
  // A name never holds NUL (nor could the database compare one): only the terminator may.
  const after = start.slice(0, -1);
  if (textProblem(after)) throw invalid('invalid start key');
  return { resourceVersion: rv, after };
}
