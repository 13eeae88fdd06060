import type { AccessControl } from '../../pkg/auth/authorization/access-control';
import type { PasswordCheck } from '../../pkg/auth/authentication/basic-auth';
import type { IdentityDirectory } from '../../pkg/auth/identity/identity-directory';
import type { LastSeenTracker } from '../../pkg/auth/authentication/last-seen';
import type { RoleDirectory } from '../../pkg/auth/authorization/role-directory';
import type { ServiceAccounts } from '../../pkg/auth/identity/service-accounts';
import type { SessionStore } from '../../pkg/auth/authentication/sessions';
import type { StoredPermissions } from '../../pkg/auth/authorization/stored-permissions';
import type { TeamDirectory } from '../../pkg/auth/identity/team-directory';
import type { Config } from '../../pkg/config';
import type { Logger } from '../../pkg/log';
import type { DataSourceInstances } from '../../pkg/plugins/instances';
import type { PreferencesDirectory } from '../../pkg/preferences/preferences-directory';
import type { Registry } from '../../pkg/registry';
import type { SecretsService } from '../../pkg/secrets';
import type { Provisioner } from '../../pkg/provisioning';
import type { SamlService } from '../../pkg/saml';
import type { StoredSettings } from '../../pkg/settings';
import type { StoredQuotas } from '../../pkg/quotas';
import type { SigningKeys } from '../../pkg/signingkeys';
import type { ReportStore } from '../../pkg/reports';
import type { RecordingRules } from '../../pkg/recording-rules';
import type { Licensing } from '../../pkg/licensing';
import type { Mailer } from '../../pkg/mail';

/**
 * Everything a legacy area's handlers may use, built once by the server (pkg/server/app.ts) and handed to every
 * route: one shape for every area, so an area needs no constructor of its own.
 */
export interface AdapterDeps {
  config: Config;
  registry: Registry;
  /**
   * The encryption at rest: `encrypt`/`decrypt` a value to store (envelope encryption with data keys), the key
   * operations of the admin encryption routes.
   */
  secrets: SecretsService;
  /** The settings kept in the database over the configuration (the enterprise edition's `auth.saml`). */
  settings: StoredSettings;
  /** The enterprise edition's SAML service provider, over the settings in force (configuration and `settings`). */
  saml: SamlService;
  /** The quota limits set per organization and user over `[quota]` (PUT .../quotas/:target). */
  quotas: StoredQuotas;
  /** The keys the server signs with, shared by every replica (their public halves: GET /api/signing-keys/keys). */
  signingKeys: SigningKeys;
  /** The enterprise edition's reports and their settings, per organization. */
  reports: ReportStore;
  /** The enterprise license, one for the installation (verified with `[enterprise] license_public_key`). */
  licensing: Licensing;
  /** Email through the `[smtp]` mail server (reports). */
  mailer: Mailer;
  users: IdentityDirectory;
  teams: TeamDirectory;
  preferences: PreferencesDirectory;
  permissions: StoredPermissions;
  access: AccessControl;
  accounts: ServiceAccounts;
  sessions: SessionStore;
  /** Custom roles: the enterprise edition only. */
  roles?: RoleDirectory;
  /** The password check of basic authentication, so the login form counts failures with it. */
  passwordCheck: PasswordCheck;
  lastSeen: LastSeenTracker;
  /** The server's version (package.json), as the usage report states it. */
  version: string;
  /** The User-Agent of every request to a data source: `dataproxy.user_agent`, else `Svc/<version>`. */
  userAgent: string;
  log: Logger;
  /** Provisioning from files: the admin reload routes apply them again. */
  provisioning: Provisioner;
  /**
   * The data sources the query, health, resources and proxy routes run plugins on: resolution (uid or id, the
   * caller's org, `datasources:query`) and the per-process cache of their decrypted instances.
   */
  dataSources: DataSourceInstances;
  /** The enterprise edition's recording rules: their registry, their evaluation (undefined in the other editions). */
  recordingRules?: RecordingRules;
}
