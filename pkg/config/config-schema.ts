import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { parseServiceAccountToken } from '../auth/identity/tokens';
import { duration, MAX_SESSION_DURATION_MS } from './duration';

/*
 * The schema of the one configuration object. Every raw value (file, environment, flag) arrives as a
 * string, so each field coerces a string; a missing value takes the field's default. Keys stay snake_case,
 * exactly as written in the INI file, so `config.server.http_port` is `[server] http_port`.
 */

/** An integer in [min, max], written in decimal. `z.coerce.number()` is not used: it turns "" into 0. */
function int(def: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(z.number().min(min, `expected an integer >= ${min}`).max(max, `expected an integer <= ${max}`))
    .default(def);
}

/** A boolean written as true/false/1/0/yes/no, any case. */
function bool(def: boolean) {
  return z
    .stringbool({ truthy: ['true', '1', 'yes'], falsy: ['false', '0', 'no'], error: 'expected a boolean (true/false/1/0/yes/no)' })
    .default(def);
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T, def: T[number]) {
  return z.enum(values, { error: `expected one of ${values.join(', ')}` }).default(def);
}

const str = (def: string) => z.string().default(def);

/** Whether `pem` is a public key node can read (a private key, from which node would derive one, is refused). */
function isPublicKey(pem: string): boolean {
  if (!/^-----BEGIN (RSA )?PUBLIC KEY-----/.test(pem)) return false;
  try {
    createPublicKey(pem);
    return true;
  } catch {
    return false;
  }
}

/**
 * The longest a Node timer (and PostgreSQL's lock_timeout) can wait, 2^31-1 ms: a longer setTimeout fires at once,
 * so a larger value would silently mean "immediately".
 */
const MAX_TIMER_MS = 2_147_483_647;
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** '' or an absolute URL with one of the given schemes. */
function url(schemes: string[]) {
  return z
    .string()
    .trim()
    .refine((s) => s === '' || (URL.canParse(s) && schemes.includes(new URL(s).protocol)), {
      error: `expected an empty value or a ${schemes.map((p) => p.replace(':', '://')).join(' or ')} URL`,
    })
    .default('');
}

const serverSchema = z.object({
  protocol: oneOf(['http', 'https'], 'http'),
  http_addr: str('').describe("address to listen on; '' means all interfaces"),
  http_port: int(3000, 0, 65535).describe('port to listen on; 0 picks a free port'),
  root_url: url(['http:', 'https:']).describe("public URL; '' derives <protocol>://localhost:<http_port>/"),
  cert_file: str('').describe("TLS certificate (PEM) for https; with cert_key, or both '' for a self-signed one in <paths.data>/tls"),
  cert_key: str('').describe('TLS private key (PEM) for https; reloaded with cert_file on SIGHUP or change'),
  min_tls_version: oneOf(['TLS1.2', 'TLS1.3'], 'TLS1.2').describe('oldest TLS version https accepts'),
  max_request_body_bytes: int(10485760, 1),
  shutdown_timeout_seconds: int(30, 0, MAX_TIMER_SECONDS).describe('grace period for in-flight requests on SIGTERM'),
  heap_growth_percent: int(50, 0, 1000).describe("how far the JavaScript heap may grow past what the last full collection kept before the next (as Go's GOGC); 0 leaves V8's own, up to 300 %"),
  edition: oneOf(['oss', 'enterprise', 'cloud'], 'oss').describe('cloud: bearer tokens only, org 1 is namespace stacks-<stack_id>; enterprise: custom roles'),
  stack_id: z
    .string()
    .trim()
    .regex(/^([0-9]{1,20})?$/, 'expected the numeric id of the stack')
    .default('')
    .describe("the cloud edition's stack (instance) id: organization 1 is namespace stacks-<stack_id>; required with edition=cloud"),
});

const databaseSchema = z.object({
  url: url(['postgres:', 'postgresql:']).describe("PostgreSQL URL; '' means embedded PGlite in paths.data"),
  max_open_conn: int(10, 1),
  migration_lock_timeout_seconds: int(60, 1, MAX_TIMER_SECONDS),
  prepared_statements: bool(true).describe('prepare the hot statements once per connection; false behind a pooler that cannot keep them (PgBouncer transaction pooling before 1.21)'),
});

const registrySchema = z.object({
  history_window_seconds: int(3600, 1).describe('continue tokens and watch resourceVersions older than this answer 410'),
  compaction_interval_seconds: int(300, 1, MAX_TIMER_SECONDS),
  watch_poll_interval_ms: int(100, 1, MAX_TIMER_MS),
  answer_cache_mb: int(32, 0, 4096).describe('MiB of JSON answers of /apis reads kept per process while nothing stored changes; 0 keeps none'),
});

/** The anchor's default `security.secret_key`: a server that keeps it warns at every start. */
export const DEFAULT_SECRET_KEY = 'SW2YcwTIb9zpOOhoPsMm';

const securitySchema = z.object({
  admin_user: z.string().trim().min(1, 'expected a non-empty user name').default('admin'),
  admin_password: str('admin'),
  admin_email: str('admin@localhost'),
  secret_key: str(DEFAULT_SECRET_KEY).describe('server secret (wraps the data keys that encrypt secrets); change it in production'),
  previous_secret_keys: z
    .string()
    .transform((s) => s.split(',').map((t) => t.trim()).filter((t) => t !== ''))
    .default([])
    .describe('comma-separated earlier secret_key values: they still unwrap the data keys they wrapped, until reencrypt-data-keys'),
  data_source_proxy_whitelist: z
    .string()
    .transform((s) => s.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))
    .default([])
    .describe("host:port of the upstreams the data source proxy may call, space- or comma-separated; '' allows any"),
});

const pathsSchema = z.object({
  data: str('./data').describe('resolved against the working directory'),
  provisioning: str('./conf/provisioning').describe('resolved against the working directory'),
});

const featureTogglesSchema = z.object({
  nestedFolders: bool(true).describe('true/false/1/0/yes/no'),
  enable: z
    .string()
    .transform((s) => s.split(',').map((t) => t.trim()).filter((t) => t !== ''))
    .default([])
    .describe('comma-separated toggle names to turn on'),
});

const dashboardsSchema = z.object({
  min_refresh_interval: z
    .string()
    .trim()
    .regex(/^\d+(ms|s|m|h|d)$/, 'expected a duration such as 500ms, 5s, 1m, 1h, 1d')
    .default('5s')
    .describe('shortest dashboard refresh allowed, e.g. 5s, 1m'),
  versions_to_keep: int(20, 1).describe('each dashboard keeps its newest versions, this many; older ones are no longer listed or restorable'),
});

const datasourcesSchema = z.object({
  datasource_limit: int(5000, 1).describe('GET /api/datasources answers at most this many data sources (by name)'),
});

/** The anchor's `[dataproxy]` settings (conf/defaults.ini): the outgoing HTTP requests of data sources. */
const dataproxySchema = z.object({
  timeout: int(30, 1, MAX_TIMER_SECONDS).describe("seconds an upstream request may take (the proxy answers 504); a data source's jsonData.timeout overrides it"),
  dialTimeout: int(10, 1, MAX_TIMER_SECONDS).describe('seconds to connect to an upstream (the proxy answers 502)'),
  send_user_header: bool(false).describe("true: upstream requests carry X-Svc-User with the caller's login (not an anonymous visitor's)"),
  user_agent: str('').describe("User-Agent of upstream requests; '' is Svc/<version>"),
  row_limit: int(1000000, 1).describe('SQL data sources answer at most this many rows per query'),
});

/** The anchor's `[snapshots]` settings (conf/defaults.ini). */
const snapshotsSchema = z.object({
  enabled: bool(true).describe('false refuses new snapshots (403 "Dashboard Snapshots are disabled")'),
  external_enabled: bool(true).describe('false refuses external snapshots (403 "External dashboard creation is disabled")'),
  external_snapshot_url: url(['http:', 'https:']).default('https://snapshots.svc.example').describe('the external snapshot server shown to clients'),
  external_snapshot_name: str('Publish to snapshots.svc.example').describe('its label in the sharing options'),
  remove_expired: bool(true).describe('a background job deletes expired snapshots'),
  sweep_interval_seconds: int(600, 1, MAX_TIMER_SECONDS).describe('how often that job runs (the anchor: every 10 minutes)'),
});

const usersSchema = z.object({ auto_assign_org_role: oneOf(['Viewer', 'Editor', 'Admin'], 'Viewer') });

/** A quota: a count, or -1 for none. */
const quota = (def: number, what: string) => int(def, -1).describe(`${what}; -1: unlimited`);

/** The anchor's `[quota]` settings (conf/defaults.ini): limits on what is created, checked when enabled. */
const quotaSchema = z.object({
  enabled: bool(false).describe('true: a create beyond a limit answers 403 "Quota reached"'),
  org_user: quota(10, 'members of each organization'),
  org_dashboard: quota(100, 'dashboards of each organization'),
  org_data_source: quota(10, 'data sources of each organization'),
  org_api_key: quota(10, 'API keys (service account tokens) of each organization'),
  org_alert_rule: quota(100, 'alert rules of each organization (no alerting here: reported only)'),
  user_org: quota(10, 'organizations each user may belong to (checked as the user joins or creates one)'),
  global_user: quota(-1, 'users of the server'),
  global_org: quota(-1, 'organizations of the server'),
  global_dashboard: quota(-1, 'dashboards of the server'),
  global_api_key: quota(-1, 'API keys (service account tokens) of the server'),
  global_session: quota(-1, 'login sessions of the server'),
  global_alert_rule: quota(-1, 'alert rules of the server (reported only)'),
  global_correlations: quota(-1, 'correlations of the server'),
  alerting_rule_group_rules: quota(100, 'rules of each alert rule group (reported only)'),
});

const authSchema = z.object({
  login_cookie_name: z.string().trim().regex(/^[A-Za-z0-9_-]+$/, 'expected a cookie name (letters, digits, _ and -)').default('svc_session'),
  login_maximum_lifetime_duration: duration('30d', MAX_SESSION_DURATION_MS).describe('a login session ends this long after sign-in (30d, 12h...; a bare number is days)'),
  login_maximum_inactive_lifetime_duration: duration('7d', MAX_SESSION_DURATION_MS).describe('a login session unused this long ends'),
  // A key of the server's own format (with its checksum): a typo stops the start instead of locking everyone out.
  initial_service_account_token: z
    .string()
    .trim()
    .refine((s) => s === '' || parseServiceAccountToken(s).valid, {
      error: 'expected a service-account token as the server makes them, svcsa_<32 letters or digits>_<8 hex digits of checksum> (npm start -- --new-service-account-token prints one)',
    })
    .default('')
    .describe("a service-account token made an Admin of org 1 at start-up (stored as a digest): the cloud edition's first credential"),
});

const authAnonymousSchema = z.object({
  enabled: bool(false).describe('requests without credentials act as org_role of org_name'),
  org_name: str('Main Org.'),
  org_role: oneOf(['Viewer', 'Editor', 'Admin'], 'Viewer'),
});

/** A PEM public key (SPKI, or an RSA PKCS#1 key) that node can read, or ''. */
const publicKeyPem = z
  .string()
  .trim()
  .refine((s) => s === '' || isPublicKey(s), { error: 'expected a PEM public key (-----BEGIN PUBLIC KEY-----), ECDSA P-256 or RSA' })
  .default('');

/**
 * The enterprise edition's license (pkg/licensing, README "Licensing"): the public key of the license authority that
 * signs license tokens, and the license server that renews them. The anchor's `[enterprise]` section.
 */
const enterpriseSchema = z.object({
  license_public_key: publicKeyPem.describe("the license authority's public key (PEM, ECDSA P-256 for ES256 or RSA for RS256) license tokens are verified with"),
  license_public_key_path: str('').describe('a file holding that key instead (PEM); resolved against the working directory'),
  license_server_url: url(['http:', 'https:']).describe("POST /api/licensing/token/renew asks this URL for a new token; '' turns renewal off"),
});

/** The anchor's SAML NameID formats (the `name_id_format` an AuthnRequest asks for). */
const NAME_ID_FORMATS = [
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
] as const;

/**
 * The anchor's `[auth.saml]` settings (the enterprise edition's SAML service provider, pkg/saml), with its names and
 * defaults. `PUT /api/admin/settings` may override any of them in the database: pkg/saml reads the two together on
 * every request, so this schema also parses those stored strings.
 */
export const authSamlSchema = z.object({
  enabled: bool(false).describe('the enterprise edition signs users in through a SAML identity provider'),
  name: str('SAML').describe('what the login page calls it'),
  entity_id: str('').describe("the service provider's entity id; '' is <root_url>api/saml/metadata"),
  single_logout: bool(false).describe('signing out also signs out of the identity provider (SAML single logout)'),
  allow_sign_up: bool(true).describe('a first SAML login creates the user; false: only existing users may sign in'),
  auto_login: bool(false).describe('the login page goes to the identity provider at once'),
  allow_idp_initiated: bool(false).describe('accept responses the identity provider sends unasked (no InResponseTo)'),
  relay_state: str('').describe('the RelayState an identity-provider-initiated login must carry'),
  certificate: str('').describe('the service provider certificate: PEM, or base64 of it'),
  certificate_path: str('').describe('or a file holding it'),
  private_key: str('').describe('the service provider private key: PEM, or base64 of it'),
  private_key_path: str('').describe('or a file holding it'),
  signature_algorithm: oneOf(['', 'rsa-sha1', 'rsa-sha256', 'rsa-sha512'], '').describe("AuthnRequests and LogoutRequests are signed with it; '' leaves them unsigned"),
  idp_metadata: str('').describe("the identity provider's SAML metadata XML, or base64 of it"),
  idp_metadata_path: str('').describe('or a file holding it'),
  idp_metadata_url: url(['http:', 'https:']).describe('or a URL serving it'),
  max_issue_delay: duration('90s', MAX_SESSION_DURATION_MS).describe('how long after the AuthnRequest (and the response issued) a response is accepted'),
  metadata_valid_duration: duration('48h', MAX_SESSION_DURATION_MS).describe('the validUntil of the service provider metadata, from now'),
  assertion_attribute_name: str('displayName').describe("the assertion attribute (name or friendly name) holding the user's name"),
  assertion_attribute_login: str('mail').describe('... the login'),
  assertion_attribute_email: str('mail').describe('... the email'),
  assertion_attribute_groups: str('').describe('... the groups'),
  assertion_attribute_role: str('').describe('... the roles, mapped by role_values_*'),
  assertion_attribute_org: str('').describe('... the organizations, mapped by org_mapping'),
  assertion_attribute_external_uid: str('userUID').describe('... the external uid'),
  allowed_organizations: str('').describe('comma- or space-separated: a user must be in one of these organizations (assertion_attribute_org)'),
  org_mapping: str('').describe('comma- or space-separated <org attribute value|*>:<org id>[:<role>]'),
  role_values_none: str('').describe('comma- or space-separated role attribute values mapped to the None role'),
  role_values_viewer: str('').describe('... to Viewer'),
  role_values_editor: str('').describe('... to Editor'),
  role_values_admin: str('').describe('... to Admin'),
  role_values_svc_admin: str('').describe('... to Admin and server administrator'),
  skip_org_role_sync: bool(false).describe("a login does not change an existing user's organization roles"),
  name_id_format: oneOf(NAME_ID_FORMATS, NAME_ID_FORMATS[0]).describe('the NameID format an AuthnRequest asks for'),
});

export type AuthSamlConfig = z.infer<typeof authSamlSchema>;

const logSchema = z.object({ level: oneOf(['debug', 'info', 'warn', 'error'], 'info') });

const metricsSchema = z.object({
  enabled: bool(true).describe('serve GET /metrics (Prometheus text format)'),
  basic_auth_username: str('').describe('with basic_auth_password: /metrics asks for these credentials; both empty: open'),
  basic_auth_password: str(''),
});

/** The anchor's `[smtp]` settings (conf/defaults.ini): the mail server reports (enterprise) are sent through. */
const smtpSchema = z.object({
  enabled: bool(false).describe('false: nothing is emailed (sending a report answers 412 "SMTP not configured...")'),
  host: z
    .string()
    .trim()
    .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}$/, 'expected host:port, e.g. smtp.example.org:587')
    .default('localhost:25')
    .describe('host:port of the SMTP server; port 465 is TLS from the start'),
  user: str('').describe("'' sends without authentication"),
  password: str(''),
  skip_verify: bool(false).describe("true: the server's TLS certificate is not verified"),
  from_address: str('admin@svc.localhost').describe('the From address of every email'),
  from_name: str('Svc').describe('the From name of every email'),
  ehlo_identity: str('').describe("the name the server greets with (EHLO); '' is the machine's host name"),
  startTLS_policy: z
    .enum(['', 'OpportunisticStartTLS', 'MandatoryStartTLS', 'NoStartTLS'], { error: 'expected one of OpportunisticStartTLS, MandatoryStartTLS, NoStartTLS (or empty)' })
    .default('')
    .describe("STARTTLS: used when offered (OpportunisticStartTLS, the default ''), required (MandatoryStartTLS) or never (NoStartTLS)"),
});

/** The sections, in the order `usage()` and `settingsView()` list them. */
export const sectionSchemas = {
  server: serverSchema,
  database: databaseSchema,
  registry: registrySchema,
  security: securitySchema,
  paths: pathsSchema,
  feature_toggles: featureTogglesSchema,
  dashboards: dashboardsSchema,
  datasources: datasourcesSchema,
  dataproxy: dataproxySchema,
  snapshots: snapshotsSchema,
  users: usersSchema,
  quota: quotaSchema,
  auth: authSchema,
  'auth.anonymous': authAnonymousSchema,
  'auth.saml': authSamlSchema,
  enterprise: enterpriseSchema,
  log: logSchema,
  metrics: metricsSchema,
  smtp: smtpSchema,
};

export type SectionName = keyof typeof sectionSchemas;

/** Settings whose values `settingsView()` masks. `database.url` is masked only in its password part. */
// The license public key is no secret, but a private key pasted there by mistake must not reach a log.
export const secretSettings: ReadonlySet<string> = new Set(['enterprise.license_public_key', 'security.admin_password', 'security.secret_key', 'security.previous_secret_keys', 'auth.initial_service_account_token', 'metrics.basic_auth_password', 'smtp.password', 'auth.saml.private_key']);

/** Settings read as durations (`30d`) and held in milliseconds: `usage()` and `settingsView()` show them as written. */
export const durationSettings: ReadonlySet<string> = new Set(['auth.login_maximum_lifetime_duration', 'auth.login_maximum_inactive_lifetime_duration', 'auth.saml.max_issue_delay', 'auth.saml.metadata_valid_duration']);

/**
 * Raw strings keyed by section then key → the typed configuration. Missing sections and keys take defaults;
 * `server.root_url` is derived when empty. Paths are not resolved here (that needs a working directory):
 * `loadConfig()` does it.
 *
 * @example
 *   configSchema.parse({ server: { http_port: '8080' } }).server.root_url; // 'http://localhost:8080/'
 */
export const configSchema = z
  .object({
    server: serverSchema.prefault({}),
    database: databaseSchema.prefault({}),
    registry: registrySchema.prefault({}),
    security: securitySchema.prefault({}),
    paths: pathsSchema.prefault({}),
    feature_toggles: featureTogglesSchema.prefault({}),
    dashboards: dashboardsSchema.prefault({}),
    datasources: datasourcesSchema.prefault({}),
    dataproxy: dataproxySchema.prefault({}),
    snapshots: snapshotsSchema.prefault({}),
    users: usersSchema.prefault({}),
    quota: quotaSchema.prefault({}),
    auth: authSchema.prefault({}),
    'auth.anonymous': authAnonymousSchema.prefault({}),
    'auth.saml': authSamlSchema.prefault({}),
    enterprise: enterpriseSchema.prefault({}),
    log: logSchema.prefault({}),
    metrics: metricsSchema.prefault({}),
    smtp: smtpSchema.prefault({}),
  })
  .superRefine((c, ctx) => {
    if (c.enterprise.license_public_key !== '' && c.enterprise.license_public_key_path !== '') {
      ctx.addIssue({ code: 'custom', path: ['enterprise', 'license_public_key_path'], message: 'set enterprise.license_public_key or enterprise.license_public_key_path, not both' });
    }
    if (c.server.edition === 'cloud' && c.server.stack_id === '') {
      ctx.addIssue({ code: 'custom', path: ['server', 'stack_id'], message: 'required with server.edition=cloud (organization 1 is namespace stacks-<stack_id>)' });
    }
    // Both, or neither: a username alone would leave /metrics open while looking protected.
    if ((c.metrics.basic_auth_username === '') !== (c.metrics.basic_auth_password === '')) {
      const missing = c.metrics.basic_auth_username === '' ? 'basic_auth_username' : 'basic_auth_password';
      ctx.addIssue({ code: 'custom', path: ['metrics', missing], message: 'set metrics.basic_auth_username and metrics.basic_auth_password together, or neither' });
    }
    // Both files, or neither: then the server makes (and afterwards reuses) a self-signed pair, as kube-apiserver does.
    if (c.server.protocol !== 'https' || (c.server.cert_file === '') === (c.server.cert_key === '')) return;
    const [missing, other] = c.server.cert_file === '' ? ['cert_file', 'cert_key'] : ['cert_key', 'cert_file'];
    ctx.addIssue({
      code: 'custom',
      path: ['server', missing],
      message: `required with server.${other} (set both, or neither for a self-signed certificate)`,
    });
  })
  .transform((c) => ({
    ...c,
    server: { ...c.server, root_url: c.server.root_url || `${c.server.protocol}://localhost:${c.server.http_port}/` },
  }));

/** The typed configuration, parsed once in `cmd/` and passed down. */
export type Config = z.infer<typeof configSchema>;

/**
 * The environment variable of a setting: `SVC_<SECTION>_<KEY>`, upper-cased, the dots of a section as `_`.
 *
 * @example
 *   envName('feature_toggles', 'nestedFolders'); // 'SVC_FEATURE_TOGGLES_NESTEDFOLDERS'
 *   envName('auth.anonymous', 'enabled'); // 'SVC_AUTH_ANONYMOUS_ENABLED'
 */
export function envName(section: string, key: string): string {
  return `SVC_${section.replaceAll('.', '_')}_${key}`.toUpperCase();
}

/** Every known setting as [section, key], in schema order. */
export function settingKeys(): Array<[SectionName, string]> {
  return (Object.keys(sectionSchemas) as SectionName[]).flatMap((s) =>
    Object.keys(sectionSchemas[s].shape).map((k): [SectionName, string] => [s, k]),
  );
}
