import type { DataSourceInstance } from './types';

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value that cannot split or end a header: no CR, LF or NUL. */
const HEADER_VALUE = /^[^\r\n\x00]*$/;

/** `Basic <base64(user:password)>`. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/**
 * The data source's credentials as headers, for every call made on its behalf (the proxy and the plugins' own
 * clients; anchor-breadth §1.13): basic auth (`basicAuth` → `basicAuthUser` and the secure `basicAuthPassword`;
 * else a `user` → it and the secure `password`), then the custom headers `jsonData.httpHeaderNameN` with secure
 * `httpHeaderValueN`, N = 1, 2… up to the first name missing. A name or value a header cannot carry is skipped
 * rather than echoed in an error.
 */
export function credentialHeaders(ds: Pick<DataSourceInstance, 'basicAuth' | 'basicAuthUser' | 'user' | 'jsonData' | 'secure'>): Record<string, string> {
  const out: Record<string, string> = {};
  if (ds.basicAuth) out.authorization = basicAuthorization(ds.basicAuthUser, ds.secure.basicAuthPassword ?? '');
  else if (ds.user) out.authorization = basicAuthorization(ds.user, ds.secure.password ?? '');
  for (let n = 1; ; n++) {
    const name = ds.jsonData[`httpHeaderName${n}`];
    if (typeof name !== 'string' || name === '') break;
    const value = ds.secure[`httpHeaderValue${n}`] ?? '';
    if (HEADER_NAME.test(name) && HEADER_VALUE.test(value)) out[name.toLowerCase()] = value;
  }
  return out;
}
