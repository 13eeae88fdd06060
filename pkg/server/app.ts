import express, { type Express } from 'express';
import type { Config } from '../config';
import { basicAuth } from '../auth/basic-auth';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import type { Registry } from '../registry';
import { WatchHub } from '../registry/watch';
import type { Storage } from '../../storage';
import { apisRouter } from './apis-router';
import type { BuildInfo } from './build-info';
import { discoveryRouter, enabledAlphaFromToggles, versionRouter } from './discovery';
import { healthRouter } from './health';
import { mainOrgOnly, type OrgDirectory } from './namespaces';
import { errorHandler } from './render-error';
import { apisOpenApiRouter, legacyOpenApiRouter } from './openapi';
import { dashboardDto } from './subresources';

export interface AppDeps {
  config: Config;
  storage: Storage;
  registry: Registry;
  log: Logger;
  build: BuildInfo;
  orgs?: OrgDirectory;
  watchHub?: WatchHub;
}

/**
 * The express application: probes, authentication, body parsing, `/apis`, then the one error handler.
 * `draining` turns /readyz to 503 while the process shuts down.
 */
export function createApp(deps: AppDeps): { app: Express; setDraining(): void; watchHub: WatchHub } {
  let draining = false;
  const watchHub = deps.watchHub ?? new WatchHub(deps.storage, { pollIntervalMs: deps.config.registry.watch_poll_interval_ms, log: deps.log });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(healthRouter(deps.storage, deps.build, () => draining));
  // Public, as kube-apiserver's /version; the legacy API's specification and explorer hold no data.
  app.use(versionRouter(deps.build));
  app.use(legacyOpenApiRouter({ version: deps.build.version }));
  // Authenticate before reading bodies: a stranger's 10 MiB upload is refused unread.
  const auth = basicAuth({ user: deps.config.security.admin_user, password: deps.config.security.admin_password });
  app.use(['/apis', '/api', '/openapi'], auth);
  // JSON, the +json patch types, and bodies without a Content-Type (kubectl create --raw sends none).
  const isJson = (req: { headers: Record<string, unknown> }) => {
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    return type === '' || type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type);
  };
  app.use(express.json({ limit: deps.config.server.max_request_body_bytes, type: isJson, strict: false }));
  const subresources = [dashboardDto(deps.registry)];
  const enabledAlpha = enabledAlphaFromToggles(deps.config.feature_toggles.enable);
  app.use(discoveryRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha }));
  app.use(apisOpenApiRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha, build: deps.build }));
  app.use(apisRouter({ registry: deps.registry, orgs: deps.orgs ?? mainOrgOnly, subresources, watchHub, log: deps.log }));
  app.use(() => {
    throw new StatusError(404, 'NotFound', 'Not found');
  });
  app.use(errorHandler(deps.log));
  return { app, setDraining: () => (draining = true), watchHub };
}
