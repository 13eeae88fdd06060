import type { JsonObject } from '../../pkg/meta';

/**
 * A dashboard's template variables in a report: their values (the dashboard's current ones, overridden by the
 * report's `reportVariables`) substituted into the panels' queries and titles before they run, as the dashboard
 * would run them. Pure.
 */

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asValues = (v: unknown): string[] | undefined =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? [String(v)] : Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : undefined;

/**
 * The variables' values by name: each of the dashboard's `templating.list` at its `current.value`, then `overrides`
 * (a value or a list of values per name). `$__all` stands for every option the variable lists.
 *
 * @example variableValues({ templating: { list: [{ name: 'host', current: { value: 'a' } }] } }, { host: ['b', 'c'] }) // Map { host => ['b', 'c'] }
 */
export function variableValues(model: JsonObject, ...overrides: readonly (Record<string, unknown> | undefined)[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const list = isObject(model.templating) && Array.isArray(model.templating.list) ? model.templating.list : [];
  for (const v of list) {
    if (!isObject(v) || typeof v.name !== 'string') continue;
    let values = isObject(v.current) ? asValues(v.current.value) : undefined;
    if (values?.length === 1 && values[0] === '$__all' && Array.isArray(v.options)) {
      values = v.options.flatMap((o) => (isObject(o) && o.value !== '$__all' ? asValues(o.value) ?? [] : []));
    }
    if (values) out.set(v.name, values);
  }
  for (const o of overrides) for (const [name, value] of Object.entries(o ?? {})) {
    const values = asValues(value);
    if (values) out.set(name, values);
  }
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function formatted(values: readonly string[], format: string | undefined): string {
  switch (format) {
    case 'pipe':
      return values.join('|');
    case 'regex':
      return values.length === 1 ? escapeRegex(values[0]!) : `(${values.map(escapeRegex).join('|')})`;
    case 'singlequote':
      return values.map((v) => `'${v.replaceAll("'", "\\'")}'`).join(',');
    case 'doublequote':
      return values.map((v) => `"${v.replaceAll('"', '\\"')}"`).join(',');
    default:
      return values.length === 1 ? values[0]! : values.join(',');
  }
}

/** `$name`, `${name}`, `${name:format}` and `[[name]]` of known variables replaced in `text`; others stay. */
export function interpolateText(text: string, values: ReadonlyMap<string, readonly string[]>): string {
  return text.replace(/\$(\w+)|\$\{(\w+)(?::(\w+))?\}|\[\[(\w+)\]\]/g, (whole, plain?: string, braced?: string, format?: string, bracketed?: string) => {
    const name = plain ?? braced ?? bracketed ?? '';
    const v = values.get(name);
    return v ? formatted(v, format) : whole;
  });
}

/** Every string of a query (nested ones too) interpolated; the rest as it is. */
export function interpolate<T>(value: T, values: ReadonlyMap<string, readonly string[]>): T {
  if (values.size === 0) return value;
  if (typeof value === 'string') return interpolateText(value, values) as T;
  if (Array.isArray(value)) return value.map((v) => interpolate(v, values)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'datasource' || k === 'refId' ? v : interpolate(v, values)])) as T;
  return value;
}
