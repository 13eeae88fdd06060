import { Router } from 'express';
import { StatusError } from '../../errors';
import type { KindRegistration } from '../../meta';
import type { BuildInfo } from '../build-info';
import { type DiscoverySubresource, groupsOf, servedKinds } from '../discovery';
import { notAcceptable, type Offer, pickOffer } from '../negotiate';
import { statusBody } from '../render-error';
import { groupVersionDocument } from './apis-document';
import { cachedDocument, type CachedDocument, sendCached } from './cacheable';

export interface ApisOpenApiOptions {
  kinds: readonly KindRegistration[];
  subresources?: readonly DiscoverySubresource[];
  enabledAlpha?: (group: string, version: string) => boolean;
  build?: BuildInfo;
}

/** kube-openapi's `serverRelativeURL`: the document's path with its hash, so clients may cache it forever. */
export const serverRelativeURL = (gv: string, etag: string) => `/openapi/v3/${gv}?hash=${etag}`;

const JSON_ONLY: readonly Offer<null>[] = [{ type: 'application', subtype: 'json', value: null }];

/**
 * `GET /openapi/v3` (the index), `/openapi/v3/apis/<group>/<version>` (one document per group-version, from the
 * kinds' zod schemas) and `/openapi/v2` (404: kubectl asks for v2 only as protobuf, and falls back fine).
 * Caching as kube-openapi's handler3: a quoted SHA-512 ETag (304 on If-None-Match); with `?hash=` equal to it,
 * `Cache-Control: public, immutable` and a year's Expires; with a stale hash, 301 to the current URL.
 *
 * @example
 *   app.use(apisOpenApiRouter({ kinds, subresources, enabledAlpha, build }));
 */
export function apisOpenApiRouter(opts: ApisOpenApiOptions): Router {
  const kinds = servedKinds(opts.kinds, opts.enabledAlpha);
  const subresources = (opts.subresources ?? []).filter((s) => kinds.includes(s.kind));
  const infoVersion = opts.build ? `v1.32.0-svc.${opts.build.version}` : undefined;
  const docs = new Map<string, CachedDocument>();
  for (const g of groupsOf(kinds)) {
    for (const version of g.versions) {
      docs.set(`apis/${g.name}/${version}`, cachedDocument(groupVersionDocument({ group: g.name, version, kinds, subresources, infoVersion })));
    }
  }
  const index = cachedDocument({ paths: Object.fromEntries([...docs].map(([gv, doc]) => [gv, { serverRelativeURL: serverRelativeURL(gv, doc.etag) }])) });
  const lastModified = new Date().toUTCString();
  const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource');

  const router = Router();
  router.get('/openapi/v3', (req, res) => {
    sendCached(req, res, index, 'application/json');
  });
  router.get('/openapi/v3/apis/:group/:version', (req, res) => {
    const gv = `apis/${req.params.group}/${req.params.version}`;
    const doc = docs.get(gv);
    if (!doc) return void res.status(404).json(statusBody(notFound()));
    res.setHeader('Vary', 'Accept');
    if (!pickOffer(req.get('accept'), JSON_ONLY)) return void res.status(406).json(statusBody(notAcceptable(JSON_ONLY)));
    const hash = req.query.hash;
    if (typeof hash === 'string' && hash !== '') {
      if (hash !== doc.etag) return void res.redirect(301, serverRelativeURL(gv, doc.etag));
      res.setHeader('Cache-Control', 'public, immutable');
      res.setHeader('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    }
    res.setHeader('Last-Modified', lastModified);
    sendCached(req, res, doc, 'application/json');
  });
  router.get('/openapi/v2', (_req, res) => {
    res.status(404).json(statusBody(notFound()));
  });
  return router;
}
