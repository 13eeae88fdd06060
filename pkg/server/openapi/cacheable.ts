import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** kube-openapi's ETag: the SHA-512 of the bytes served, in upper-case hex. */
export function computeETag(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/** A generated document: its exact bytes and their hash, computed once. */
export interface CachedDocument {
  bytes: Buffer;
  etag: string;
}

export function cachedDocument(doc: unknown): CachedDocument {
  const bytes = Buffer.from(JSON.stringify(doc));
  return { bytes, etag: computeETag(bytes) };
}

function ifNoneMatch(req: Request, etag: string): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === `"${etag}"`);
}

/**
 * Sends `doc` under an exact Content-Type with a quoted ETag, answering 304 to a matching If-None-Match (what Go's
 * http.ServeContent does for kube-apiserver's discovery and OpenAPI handlers).
 */
export function sendCached(req: Request, res: Response, doc: CachedDocument, contentType: string): void {
  res.setHeader('ETag', `"${doc.etag}"`);
  if (ifNoneMatch(req, doc.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', contentType);
  res.send(doc.bytes);
}
