import type { Response } from 'express';

/** The Content-Type `res.json()` sends. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** An array longer than this is written in pieces. */
const PIECEWISE_FROM = 16;
/**
 * Elements are joined into pieces of about this many characters: each piece written is one more buffer for the
 * socket's writev to encode and one more iovec, and 100 pieces of 1.7 KB answered half as many pages a second as
 * 11 pieces of 16 KB (a 100 KB body, 8 connections, a bare node:http server on a 2-core machine).
 */
const PIECE_CHARS = 16_384;

/**
 * Sends `body` as JSON, the same bytes as `res.json(body)` (a list's body: `JSON.stringify(list)`), with a
 * Content-Length. When its last key holds a long array (a list's `items`, a Table's `rows`), the body is written in
 * pieces of about 16 KB (whole elements), under one cork: a page of 100 dashboards is ~170 KB, and building it as one string and
 * one Buffer cost several times what serializing its items did (each allocation that large gets fresh pages, and on
 * a VM every page faults).
 *
 * @example sendJson(res, await registry.list(ctx, kind, opts));
 */
export function sendJson(res: Response, body: unknown, contentType: string = JSON_CONTENT_TYPE): void {
  const pieces = piecesOf(body);
  if (!pieces) {
    res.setHeader('Content-Type', contentType);
    res.send(Buffer.from(JSON.stringify(body)));
    return;
  }
  sendPieces(res, pieces, contentType);
}

/**
 * The bytes {@link sendJson} sends for `body`: one buffer, or (a long list) pieces of about 16 KB, to keep and send
 * again with {@link sendPieces}.
 *
 * @example const pieces = jsonPieces(await registry.list(ctx, kind, opts)); sendPieces(res, pieces);
 */
export function jsonPieces(body: unknown): Buffer[] {
  return (piecesOf(body) ?? [JSON.stringify(body)]).map((p) => Buffer.from(p));
}

/** Sends `pieces` (strings or bytes) as the body, with their Content-Type and Content-Length, under one cork. */
export function sendPieces(res: Response, pieces: readonly (string | Buffer)[], contentType: string = JSON_CONTENT_TYPE): void {
  res.setHeader('Content-Type', contentType);
  let length = 0;
  for (const p of pieces) length += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  res.setHeader('Content-Length', length);
  res.cork();
  for (const p of pieces) res.write(p);
  res.end();
  res.uncork();
}

/** The JSON of `body` in pieces whose concatenation is `JSON.stringify(body)`, or undefined when not worth it. */
function piecesOf(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'toJSON' in body) return undefined;
  const keys = Object.keys(body);
  const last = keys[keys.length - 1];
  const array = (body as Record<string, unknown>)[last];
  if (!Array.isArray(array) || array.length < PIECEWISE_FROM) return undefined;
  // `{..."<last>":[]}`: everything before the array's elements, then the elements, then `]}`.
  const shell = JSON.stringify({ ...body, [last]: [] });
  const pieces: string[] = [];
  let piece = shell.slice(0, -2);
  for (let i = 0; i < array.length; i++) {
    const json = JSON.stringify(array[i]) ?? 'null';
    piece += i === 0 ? json : `,${json}`;
    if (piece.length >= PIECE_CHARS) {
      pieces.push(piece);
      piece = '';
    }
  }
  pieces.push(`${piece}]}`);
  return pieces;
}
