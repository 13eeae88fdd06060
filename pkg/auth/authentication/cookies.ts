import type { Request } from 'express';

/**
 * The value of one cookie of a request, read from its Cookie header (RFC 6265: `a=1; b=2`, values optionally
 * quoted, percent-encoded by express's `res.cookie`); undefined when absent or not decodable.
 *
 * @example
 *   cookieOf(req, 'svc_session'); // 'k3J…' for `Cookie: theme=dark; svc_session=k3J…`
 */
export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
