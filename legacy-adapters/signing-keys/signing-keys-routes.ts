import type { Request, Response } from 'express';
import type { AdapterDeps } from '../shared';

/**
 * `GET /api/signing-keys/keys`: the public halves of the server's signing keys, for whoever verifies its tokens;
 * cacheable for an hour, as the anchor answers (a new key is made a month ahead of the old one's expiry).
 */
export async function retrieveJwks(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const jwks = await deps.signingKeys.jwks();
  res.set('Cache-Control', 'public, max-age=3600').json(jwks);
}
