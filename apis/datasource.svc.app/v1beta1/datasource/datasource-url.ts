/**
 * The anchor's URL rules for data sources (`pkg/api/datasource/validation.go`): the types that cannot work without a
 * URL, and what a URL must look like.
 */

/** Plugin types that need a URL (the anchor's list, its brand words replaced). */
const NEEDS_URL: ReadonlySet<string> = new Set([
  'graphite', 'influxdb', 'elasticsearch', 'prometheus', 'alertmanager', 'jaeger', 'loki', 'opentsdb', 'tempo', 'zipkin', 'mysql',
  'postgres', 'svc-postgresql-datasource', 'mssql',
]);

/**
 * Whether `url` is acceptable for a data source of `type`: empty only for types that need none; otherwise a URL
 * that parses once a missing scheme is taken as `http://`, as the anchor parses it.
 *
 * @example
 *   urlAcceptable('prometheus', 'localhost:9090'); // true
 *   urlAcceptable('prometheus', '');               // false
 *   urlAcceptable('svc-testdata-datasource', '');  // true
 *   urlAcceptable('loki', 'http://exa mple.com');  // false
 */
export function urlAcceptable(type: string, url: string): boolean {
  if (url === '') return !NEEDS_URL.has(type);
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url) ? url : `http://${url}`;
  try {
    const parsed = new URL(withScheme);
    return parsed.host !== '' || parsed.protocol === 'file:';
  } catch {
    return false;
  }
}
