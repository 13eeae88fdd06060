import express, { type Express } from 'express';
import type { Strategy } from 'passport';
import type { Config } from '../config';
import { authenticate } from '../auth/authentication/authenticate';
import { basicStrategy, type PasswordCheck, passwordCheck } from '../auth/authentication/basic-auth';
import { bearerStrategy } from '../auth/authentication/bearer-auth';
import { bootstrapIdentity } from '../auth/identity/identity-bootstrap';
import { IdentityDirectory } from '../auth/identity/identity-directory';
import { ensureInitialServiceAccountToken } from '../auth/identity/initial-service-account';
import { LastSeenTracker } from '../auth/authentication/last-seen';
import { TeamDirectory } from '../auth/identity/team-directory';
import { PreferencesDirectory } from '../preferences/preferences-directory';
import { AccessControl, attachAccess } from '../auth/authorization/access-control';
import { CallerCheck } from '../auth/authentication/caller-check';
import { StoredPermissions } from '../auth/authorization/stored-permissions';
import { anonymousStrategy, sessionStrategy } from '../auth/authentication/session-auth';
import { SessionStore } from '../auth/authentication/sessions';
import { StoredLoginAttempts } from '../auth/authentication/stored-login-attempts';
import { apisOrgAccess, selectLegacyOrg } from '../auth/authorization/org-access';
import { ServiceAccounts } from '../auth/identity/service-accounts';
import { RoleDirectory } from '../auth/authorization/role-directory';
import { teamPermissions } from '../auth/authorization/team-permissions';
import { isPublicApiRoute, legacyAreas, legacyRouter, readAheadRoutes } from '../../legacy-adapters';
import { deliverScheduled } from '../../legacy-adapters/reports/reports-send';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import { type OrgDirectory, Registry, storedOrgs } from '../registry';
import { WatchHub } from '../registry/watch';
import { DataSourceInstances } from '../plugins/instances';
import { openSecrets, type SecretsService } from '../secrets';
import { Provisioner } from '../provisioning';
import { SamlService } from '../saml';
import { StoredSettings } from '../settings';
import { identityQuotas, StoredQuotas } from '../quotas';
import { SigningKeys } from '../signingkeys';
import { ReportScheduler, ReportStore } from '../reports';
import { RecordingRules } from '../recording-rules';
import { Licensing } from '../licensing';
import { Mailer } from '../mail';
import { internalKinds } from '../../apis';
import { ScopedReads, type Storage } from '../../storage';
import { readScope } from './read-scope';
import { lateRoutes } from './late-routes';
import { readRoutes } from './read-routes';
import { AnswerCache } from './answer-cache';
import { apisRouter } from './apis-router';
import { WatchCredentials } from './watch-credentials';
import type { BuildInfo } from './build-info';
import { discoveryRouter, enabledAlphaFromToggles, versionRouter } from './discovery';
import { healthRouter } from './health';
import { Metrics, metricsRouter } from './metrics';
import { keepRawBody } from './patch-handler';
import { requestLog } from './request-log';
import { errorHandler } from './render-error';
import { checkRequestBody, checkRequestTarget } from './request-input';
import { apisOpenApiRouter, legacyOpenApiRouter } from './openapi';
import { kindSubresources } from './subresources';

export interface AppDeps {
  config: Config;
  storage: Storage;
  registry: Registry;
  log: Logger;
  build: BuildInfo;
  orgs?: OrgDirectory;
  watchHub?: WatchHub;
  /** The encryption at rest; default one over `storage` from `config.security` (the registry's own is composeServer's). */
  secrets?: SecretsService;
  /** The process's environment, which provisioning files interpolate (`$VAR`, `$__env{VAR}`); default none. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The express application: probes, authentication, body parsing, `/apis`, then the one error handler.
 * `draining` turns /readyz to 503 while the process shuts down.
 */
export function createApp(deps: AppDeps): {
  app: Express;
  setDraining(): void;
  watchHub: WatchHub;
  users: IdentityDirectory;
  identityReady(): Promise<void>;
  /** The data sources' plugin instances: closed at shutdown (pools, clients). */
  dataSources: DataSourceInstances;
  provisioning: Provisioner;
  /** The enterprise edition's recording rules (undefined in the others); not started: startServer runs them. */
  recordingRules?: RecordingRules;
  /** The enterprise edition's scheduled reports (undefined in the others); not started: startServer runs it. */
  reportScheduler?: ReportScheduler;
} {
  let draining = false;
  const cloud = deps.config.server.edition === 'cloud';
  // Org 1 and the configured admin are made to exist at once; requests wait for it, and retry it if it failed
  // (the database was down at start-up).
  const users = new IdentityDirectory(deps.storage, deps.registry.namespaces, identityQuotas(deps.config, deps.registry.namespaces));
  const teams = new TeamDirectory(users);
  const preferences = new PreferencesDirectory(users, teams);
  // Custom roles exist in the enterprise edition only: elsewhere no role source, and their endpoints are 404.
  const roles = deps.config.server.edition === 'enterprise' ? new RoleDirectory(users) : undefined;
  const { admin_user, admin_password, admin_email } = deps.config.security;
  const accounts = new ServiceAccounts(users.registry, deps.storage);
  const initialToken = deps.config.auth.initial_service_account_token;
  const bootstrap = async () => {
    await bootstrapIdentity(users, { user: admin_user, password: admin_password, email: admin_email });
    if (initialToken) await ensureInitialServiceAccountToken(accounts, initialToken);
  };
  let bootstrapping: Promise<void> | undefined;
  const identityReady = () =>
    (bootstrapping ??= bootstrap().catch((err: unknown) => {
      bootstrapping = undefined;
      throw err;
    }));
  identityReady().catch((err: unknown) => deps.log.warn('identity bootstrap failed; retried on the next request', { error: err instanceof Error ? err.message : String(err) }));
  // The open watches are read when scraped, from the hub made just below.
  const metrics = new Metrics(deps.storage, deps.build, () => watchHub.stats().watches);
  const watchHub =
    deps.watchHub ??
    new WatchHub(deps.storage, {
      pollIntervalMs: deps.config.registry.watch_poll_interval_ms,
      log: deps.log,
      onEvent: (type) => metrics.watchEvent(type),
      onRead: (lag) => metrics.watchPollLag(lag),
    });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // First: every request, whatever answers it, gets its id and its log line.
  app.use(requestLog(deps.log, metrics));
  app.use(readRoutes(healthRouter(deps.storage, deps.build, () => draining)));
  app.use(readRoutes(metricsRouter(metrics, deps.config.metrics)));
  // JSON answers of /apis reads are kept while nothing stored changes (the request's one versions statement tells).
  const { storage } = deps;
  const answerBytes = deps.config.registry.answer_cache_mb * 2 ** 20;
  let answers: AnswerCache | undefined;
  if (storage instanceof ScopedReads && answerBytes > 0) {
    const cache: AnswerCache = new AnswerCache(() => storage.stamp(), { maxBytes: answerBytes, onSend: metrics.answers(() => cache.stats()) });
    answers = cache;
  }
  if (storage instanceof ScopedReads) app.use(readScope(storage, readAheadRoutes(legacyAreas, deps.registry.namespaces), (url) => !!answers?.holds(url)));
  // Public, as kube-apiserver's /version; the legacy API's specification and explorer hold no data.
  app.use(readRoutes(versionRouter(deps.build)));
  app.use(readRoutes(legacyOpenApiRouter({ version: deps.build.version })));
  // Authenticate before reading bodies: a stranger's 10 MiB upload is refused unread.
  // Strategies are tried in order; the first that recognises the caller wins.
  // Failed logins are counted in the database, so every replica refuses a throttled login.
  const verify = passwordCheck({ users, ready: identityReady, attempts: new StoredLoginAttempts(users.registry) });
  // Sign-ins (basic authentication, the login form) count their refusals; open watches re-checking theirs do not.
  const check: PasswordCheck = async (login, password, ip) => {
    const user = await verify(login, password, ip);
    if (!user) metrics.loginFailed();
    return user;
  };
  const { auth } = deps.config;
  const anonymous = deps.config['auth.anonymous'];
  const sessions = new SessionStore(users.registry, { maxLifetimeMs: auth.login_maximum_lifetime_duration, maxInactiveMs: auth.login_maximum_inactive_lifetime_duration });
  const cookieName = auth.login_cookie_name;
  // The cloud edition accepts bearer tokens only (spec §5.2): basic credentials and session cookies are refused
  // with 401, and nobody is anonymous.
  const strategies: Record<string, Strategy> = {};
  if (!cloud) strategies.session = sessionStrategy({ users, sessions, cookieName, ready: identityReady });
  strategies.bearer = bearerStrategy({ accounts, ready: identityReady });
  if (!cloud) strategies.basic = basicStrategy(check);
  if (!cloud && anonymous.enabled) {
    strategies.anonymous = anonymousStrategy({ users, orgName: anonymous.org_name, orgRole: anonymous.org_role, cookieName, ready: identityReady });
  }
  // Users' activity (lastSeenAt), written in the background at most once a minute per user.
  const lastSeen = new LastSeenTracker(users.registry, { onError: (err) => deps.log.warn('could not record a user\'s activity', { error: err instanceof Error ? err.message : String(err) }) });
  // The public routes of the legacy API (a snapshot read by its key, deleted by its delete key) answer before
  // authentication, which would refuse a request without credentials; the router is filled once its deps exist.
  const publicApi = lateRoutes();
  app.use(publicApi);
  app.use(['/apis', '/api', '/openapi'], authenticate(strategies), lastSeen.middleware());
  // Before anything reads a name or a parameter: no NUL, no lone surrogate, no malformed percent-encoding.
  app.use(checkRequestTarget);
  app.use('/api', selectLegacyOrg(users));
  app.use('/apis', apisOrgAccess(users, deps.registry.kinds));
  const permissions = new StoredPermissions(users.registry);
  const access = new AccessControl({ registry: deps.registry, teams, sources: [teamPermissions(teams)], roles, permissions });
  app.use(['/api', '/apis'], attachAccess(access));
  // Routes that stream the request body themselves (the data source proxy) come before the parsers that would read
  // it; the router is filled once the adapters' deps exist, as publicApi.
  const streamingApi = lateRoutes();
  app.use(streamingApi);
  // JSON, the +json patch types, and bodies without a Content-Type (kubectl create --raw sends none).
  const isJson = (req: { headers: Record<string, unknown> }) => {
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    return type === '' || type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type);
  };
  const limit = deps.config.server.max_request_body_bytes;
  // The JSON text is kept (keepRawBody): fieldValidation reports duplicate members, which JSON.parse drops.
  app.use(express.json({ limit, type: isJson, strict: false, verify: keepRawBody }));
  // Server-side apply bodies are YAML (or JSON): the patch handler parses the text.
  app.use(express.text({ limit, type: 'application/apply-patch+yaml' }));
  // Every body, for every route: nothing PostgreSQL refuses, nothing nested deeper than MAX_DEPTH.
  app.use(checkRequestBody);
  const subresources = kindSubresources(deps.registry);
  const enabledAlpha = enabledAlphaFromToggles(deps.config.feature_toggles.enable);
  app.use(readRoutes(discoveryRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha })));
  app.use(readRoutes(apisOpenApiRouter({ kinds: deps.registry.kinds, subresources, enabledAlpha, build: deps.build })));
  // Open watches end within about a second of their credential losing its access (a revoked token, a role change).
  const callers = new CallerCheck({ users, accounts, access, password: cloud ? undefined : verify, sessions: cloud ? undefined : { store: sessions, cookieName } });
  const credentials = new WatchCredentials(callers, { log: deps.log });
  app.use(apisRouter({ registry: deps.registry, orgs: deps.orgs ?? storedOrgs(users), subresources, watchHub, log: deps.log, credentials, answers }));
  // The legacy API, area by area; the login form (`/login`, `/logout`) is among them, outside /api and reachable
  // without credentials (not in the cloud edition, bearer tokens only).
  const { log, registry, config } = deps;
  const secrets = deps.secrets ?? openSecrets(config.security, deps.storage, registry.namespaces);
  const dataSources = new DataSourceInstances({ registry, log });
  const userAgent = config.dataproxy.user_agent || `Svc/${deps.build.version}`;
  // Settings changed through PUT /api/admin/settings, in the database beside the data keys.
  const settings = new StoredSettings(registry.companion(internalKinds));
  // SAML sign-in reads the settings in force (configuration, then those stored) at each request.
  const saml = new SamlService({ config, settings, log });
  // Quota limits set per organization and user, beside the objects they limit (the registry's quota check reads them).
  const quotas = new StoredQuotas(registry.companion(internalKinds));
  // The keys the server signs with, in the database, their private halves encrypted with this server's secrets.
  // reencrypt-secrets and rollback-secrets rewrite them too.
  const signingKeyRegistry = new Registry(deps.storage, internalKinds, { nestedFolders: false, namespaces: registry.namespaces, secrets });
  secrets.addHolder(signingKeyRegistry);
  const signingKeys = new SigningKeys(signingKeyRegistry);
  // Reports (enterprise), beside the dashboards they render.
  const reports = new ReportStore(registry.companion(internalKinds));
  // The enterprise license, beside the signing keys: its token is a secure value of the same registry.
  const licensing = new Licensing(signingKeyRegistry, { publicKey: config.enterprise.license_public_key, instance: config.server.root_url, serverUrl: config.enterprise.license_server_url });
  // Files under paths.provisioning, written as the provisioner; replicas take turns on the database's lock.
  const provisioning = new Provisioner(
    { registry, orgs: deps.orgs ?? storedOrgs(users), checksumKey: config.security.secret_key, orgIds: async () => (await users.listOrgs()).map((o) => o.id) },
    { root: config.paths.provisioning, cwd: process.cwd(), sources: { env: deps.env ?? {} }, exclusively: (name, fn) => deps.storage.exclusively(name, fn), log },
  );
  // The enterprise edition's recording rules, evaluated by one replica per rule and interval (pkg/recording-rules).
  const recordingRules =
    config.server.edition === 'enterprise'
      ? new RecordingRules({ registry: registry.companion(internalKinds), dataSources, orgIds: async () => (await users.listOrgs()).map((o) => o.id), log, userAgent, timeoutMs: config.dataproxy.timeout * 1000, rowLimit: config.dataproxy.row_limit })
      : undefined;
  const adapterDeps = { config, registry, secrets, users, teams, preferences, permissions, access, accounts, sessions, roles, passwordCheck: check, lastSeen, log, userAgent, version: deps.build.version, provisioning, dataSources, settings, saml, quotas, signingKeys, reports, recordingRules, licensing, mailer: new Mailer(config.smtp) };
  publicApi.fill(legacyRouter(legacyAreas, adapterDeps, { only: isPublicApiRoute, before: [checkRequestTarget] }));
  streamingApi.fill(legacyRouter(legacyAreas, adapterDeps, { only: (route) => !isPublicApiRoute(route) && !!route.rawBody }));
  app.use(legacyRouter(legacyAreas, adapterDeps, { only: (route) => !isPublicApiRoute(route) && !route.rawBody, keep: answers && ((req, res, compute) => answers!.send(req, res, compute)) }));
  app.use(() => {
    throw new StatusError(404, 'NotFound', 'Not found');
  });
  app.use(errorHandler(deps.log));
  // Scheduled reports, each due send claimed by one replica (pkg/reports).
  const reportScheduler = config.server.edition === 'enterprise' ? new ReportScheduler(reports, deliverScheduled(adapterDeps), (ns) => registry.namespaces.orgIdOf(ns), log) : undefined;
  return { app, setDraining: () => (draining = true), watchHub, users, identityReady, provisioning, dataSources, recordingRules, reportScheduler };
}
