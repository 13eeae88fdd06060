import express, { type Express } from 'express';
import type { Config } from '../config';
import { basicAuth } from '../auth/basic-auth';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import type { Registry } from '../registry';
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
}

/**
 * The express application: probes, authentication, body parsing, `/apis`, then the one error handler.
 * `draining` turns /readyz to 503 while the process shuts down.
 */
export function createApp(deps: AppDeps): { app: Express; setDraining(): void } {
  let draining = false;
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
  app.use(express.json({ limit: deps.config.server.max_request_body_bytes, type: ['application/json', 'application/*+json'], strict: false }));
  const subresources = [dashboardDto(deps.registry)];
  const enabledAlpha = enabledAlphaFromToggles(deps.config.feature_toggles.enable);
  app.use(discoveryRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha }));
  app.use(apisOpenApiRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha, build: deps.build }));
  app.use(apisRouter({ registry: deps.registry, orgs: deps.orgs ?? mainOrgOnly, subresources }));
  app.use(() => {
    throw new StatusError(404, 'NotFound', 'Not found');
  });
  app.use(errorHandler(deps.log));
  return { app, setDraining: () => (draining = true) };
}
