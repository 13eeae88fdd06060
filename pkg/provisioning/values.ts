import fs from 'node:fs';

/** Where interpolation reads variables and files: the process's environment, given by cmd/ (no module reads it). */
export interface ValueSources {
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a `$__file{path}`; default fs.readFileSync (paths relative to the working directory). */
  readFile?: (path: string) => string;
}

/** An expander that failed (`$__file{}` of a missing file): the reference's message, the raw value in it. */
export class InterpolationError extends Error {
  constructor(raw: string, cause: string) {
    super(`failed to interpolate value '${raw}': ${cause}`);
    this.name = 'InterpolationError';
  }
}

const EXPANDER = /\$__(\w+)\{(.*?)\}/g;
// Go's os.Expand: ${name}, $name, or one of the shell's special one-character names.
const ENV_VAR = /\$(?:\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*)|([*#$@!?\-0-9]))/g;

/**
 * One string value as the anchor expands it (pkg/services/provisioning/values/values.go): split on `$$` (each a
 * literal `$`), each part through `$__env{VAR}` and `$__file{path}` (trimmed content), then `$VAR` / `${VAR}`; an
 * unset variable is ''. An unknown `$__name{}` is left as written.
 *
 * @example interpolate('$$HOME=${HOME}', { env: { HOME: '/root' } }) // '$HOME=/root'
 */
export function interpolate(raw: string, sources: ValueSources): string {
  const readFile = sources.readFile ?? ((p: string) => fs.readFileSync(p, 'utf8'));
  return raw
    .split('$$')
    .map((part) => {
      const expanded = part.replace(EXPANDER, (match, name: string, arg: string) => {
        if (name === 'env') return sources.env[arg] ?? '';
        if (name === 'file') {
          try {
            return readFile(arg).trim();
          } catch (err) {
            throw new InterpolationError(raw, err instanceof Error ? err.message : String(err));
          }
        }
        return match;
      });
      return expanded.replace(ENV_VAR, (_m, braced?: string, plain?: string, special?: string) => sources.env[braced ?? plain ?? special ?? ''] ?? '');
    })
    .join('$');
}

/**
 * Every string value inside `value` (maps and lists, not keys) interpolated; other values as they are. `onError`
 * learns the path of a value that failed, for the error naming the field.
 *
 * @example interpolateAll({ url: '$URL', port: 5 }, { env: { URL: 'http://x' } }) // { url: 'http://x', port: 5 }
 */
export function interpolateAll(value: unknown, sources: ValueSources, path: PropertyKey[] = [], onError?: (path: PropertyKey[], err: InterpolationError) => never): unknown {
  if (typeof value === 'string') {
    try {
      return interpolate(value, sources);
    } catch (err) {
      if (err instanceof InterpolationError && onError) onError(path, err);
      throw err;
    }
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolateAll(v, sources, [...path, i], onError));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, sources, [...path, k], onError)]));
  }
  return value;
}
