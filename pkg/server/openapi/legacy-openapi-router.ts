import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import { cachedDocument, sendCached } from './cacheable';
import { legacyRoutes, type LegacyRouteDoc } from './legacy-routes';
import { legacySwagger } from './legacy-swagger';
import { swagger2ToOpenapi3 } from './swagger2-to-openapi3';

/** The files of swagger-ui-dist the explorer page loads; nothing else of the package is served. */
const EXPLORER_ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png']);

const EXPLORER_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>dashboard-apiserver HTTP API</title>
    <link rel="stylesheet" type="text/css" href="./swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="./index.css" />
    <link rel="icon" type="image/png" href="./favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="./favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="./swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="./swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="./swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// Replaces swagger-ui-dist's initializer (which loads the petstore from the internet): our two documents, by
// relative URL (the page works under any path prefix), and no online validator badge.
const EXPLORER_INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '../openapi3.json', name: 'Legacy API /api (OpenAPI 3.0, generated from 2.0)' },
      { url: '../swagger.json', name: 'Legacy API /api (Swagger 2.0)' },
    ],
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

export interface LegacyOpenApiOptions {
  /** Default `legacyRoutes`. */
  routes?: readonly LegacyRouteDoc[];
  /** The server's version, for `info.version`. */
  version: string;
}

/** The two legacy documents, v3 generated from v2. */
export function legacyDocuments(opts: LegacyOpenApiOptions) {
  const v2 = legacySwagger({ routes: opts.routes ?? legacyRoutes, version: opts.version });
  return { v2, v3: swagger2ToOpenapi3(v2) };
}

/**
 * The legacy API's specification and its explorer, all offline (spec §9.4):
 * - `/swagger.json`: OpenAPI v2 (Swagger 2.0), the specification;
 * - `/openapi3.json`: OpenAPI v3.0, generated from it;
 * - `/public/api-merged.json`, `/public/openapi3.json`: the same two, where the anchor serves them;
 * - `/swagger/`: swagger-ui (from swagger-ui-dist, no CDN), with both documents to choose from.
 * They describe the API and hold no data: mount them before authentication.
 *
 * @example
 *   app.use(legacyOpenApiRouter({ version: deps.build.version }));
 */
export function legacyOpenApiRouter(opts: LegacyOpenApiOptions): Router {
  const { v2, v3 } = legacyDocuments(opts);
  const v2Doc = cachedDocument(v2);
  const v3Doc = cachedDocument(v3);
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));

  const router = Router();
  const json = (doc: typeof v2Doc) => (req: Request, res: Response) => sendCached(req, res, doc, 'application/json');
  router.get(['/swagger.json', '/public/api-merged.json'], json(v2Doc));
  router.get(['/openapi3.json', '/public/openapi3.json'], json(v3Doc));

  const page = (req: Request, res: Response) => {
    // The page loads its assets by relative URL: /swagger must become /swagger/.
    const urlPath = req.originalUrl.split('?')[0];
    if (!urlPath.endsWith('/') && !urlPath.endsWith('.html')) return res.redirect(301, `${path.posix.basename(urlPath)}/`);
    res.type('html').send(EXPLORER_HTML);
  };
  router.get(['/swagger', '/swagger/index.html'], page);
  router.get('/swagger/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(EXPLORER_INITIALIZER);
  });
  router.get('/swagger/:file', (req, res, next) => {
    const file = req.params.file as string;
    if (!EXPLORER_ASSETS.has(file)) return next();
    res.sendFile(file, { root: assets, maxAge: '1d' });
  });
  return router;
}
