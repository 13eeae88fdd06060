import { type Profile, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import type { ExternalSession } from '../auth/authentication/sessions';
import type { AuthSamlConfig, Config } from '../config';
import type { Logger } from '../log';
import type { StoredSettings } from '../settings';
import { HTTP_POST, type IdpMetadata, IdpMetadataSource } from './idp-metadata';
import { RequestIds } from './request-ids';
import { SamlConfigError, SamlRefusedError, samlNotFound } from './saml-errors';
import { effectiveSamlSettings, SAML_SECTION } from './saml-settings';
import { loadSpKeys, type SpKeys } from './sp-keys';

/** How far the identity provider's clock may be from ours (crewjam/saml's MaxClockSkew, which the anchor uses). */
const CLOCK_SKEW_MS = 180_000;

const SIGNATURE_ALGORITHMS = { 'rsa-sha1': 'sha1', 'rsa-sha256': 'sha256', 'rsa-sha512': 'sha512' } as const;

/** The service provider's own URLs, under `server.root_url`. */
export function spUrls(config: Config) {
  const root = config.server.root_url.replace(/\/?$/, '/');
  return { metadata: `${root}api/saml/metadata`, acs: `${root}api/saml/acs`, slo: `${root}api/saml/slo` };
}

export interface SamlServiceDeps {
  config: Config;
  /** The settings `PUT /api/admin/settings` stored over the configuration's `[auth.saml]`. */
  settings: StoredSettings;
  log: Logger;
  /** Fetches `idp_metadata_url` (default the global fetch). */
  fetch?: typeof fetch;
}

/**
 * The enterprise edition's SAML service provider. Each request reads the settings in force ({@link provider}): the
 * configuration's `[auth.saml]` with the database's overrides, so a `PUT /api/admin/settings` on one replica
 * takes effect at the next request on every one. The SAML protocol itself (AuthnRequest, signature, audience,
 * time and InResponseTo checks, metadata, logout messages) is @node-saml/node-saml's.
 *
 * @example
 *   const saml = new SamlService({ config, settings, log });
 *   const provider = await saml.provider(); // throws a 404 StatusError when SAML is off
 *   res.redirect(await provider.authorizeUrl());
 */
export class SamlService {
  private readonly metadataSource: IdpMetadataSource;

  constructor(private readonly deps: SamlServiceDeps) {
    this.metadataSource = new IdpMetadataSource({ fetch: deps.fetch });
  }

  /**
   * The service provider of the settings in force.
   *
   * @throws StatusError 404 when SAML is off: another edition than enterprise, `enabled` false, or settings that
   *   cannot be used (then the reason is logged, naming the settings).
   */
  async provider(): Promise<SamlProvider> {
    const { config, settings, log } = this.deps;
    if (config.server.edition !== 'enterprise') throw samlNotFound();
    const effective = effectiveSamlSettings(config, (await settings.all())[SAML_SECTION]);
    if (!effective.ok) {
      log.warn('SAML is off: its settings are not valid', { problem: effective.problem });
      throw samlNotFound();
    }
    if (!effective.settings.enabled) throw samlNotFound();
    try {
      const [keys, idp] = await Promise.all([loadSpKeys(effective.settings), this.metadataSource.load(effective.settings)]);
      return new SamlProvider(config, effective.settings, keys, idp);
    } catch (err) {
      if (!(err instanceof SamlConfigError)) throw err;
      log.warn('SAML is off: its settings cannot be used', { problem: err.message });
      throw samlNotFound();
    }
  }
}

/** The result of a validated logout message. */
export type LogoutMessage = { kind: 'request'; profile: Profile } | { kind: 'response' };

/** The service provider of one set of settings: what the SAML routes do, over node-saml. */
export class SamlProvider {
  readonly entityId: string;
  readonly urls: ReturnType<typeof spUrls>;
  private readonly ids: RequestIds;

  constructor(
    config: Config,
    readonly settings: AuthSamlConfig,
    private readonly keys: SpKeys,
    readonly idp: IdpMetadata,
  ) {
    this.urls = spUrls(config);
    this.entityId = settings.entity_id || this.urls.metadata;
    this.ids = new RequestIds(config.security.secret_key, settings.max_issue_delay);
  }

  private saml(): SAML {
    const s = this.settings;
    const signed = s.signature_algorithm !== '';
    const options: SamlConfig = {
      issuer: this.entityId,
      audience: this.entityId,
      callbackUrl: this.urls.acs,
      entryPoint: this.idp.sso.url,
      authnRequestBinding: this.idp.sso.binding === HTTP_POST ? 'HTTP-POST' : 'HTTP-Redirect',
      idpCert: this.idp.certificates,
      idpIssuer: this.idp.entityId,
      identifierFormat: s.name_id_format,
      decryptionPvk: this.keys.privateKey,
      ...(signed ? { privateKey: this.keys.privateKey, publicCert: this.keys.certificate, signatureAlgorithm: SIGNATURE_ALGORITHMS[s.signature_algorithm as keyof typeof SIGNATURE_ALGORITHMS] } : {}),
      // As the anchor (crewjam/saml): the response or the assertion must be signed by the IdP, either one.
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: s.max_issue_delay,
      validateInResponseTo: s.allow_idp_initiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: s.max_issue_delay,
      generateUniqueId: () => this.ids.next(),
      cacheProvider: this.ids.cacheProvider(),
      ...(this.idp.sloUrl ? { logoutUrl: this.idp.sloUrl } : {}),
      ...(s.single_logout ? { logoutCallbackUrl: this.urls.slo } : {}),
    };
    return new SAML(options);
  }

  /** The service provider metadata XML (entity id, ACS and SLO URLs, the certificate), valid for `metadata_valid_duration`. */
  metadata(): string {
    const xml = this.saml().generateServiceProviderMetadata(this.keys.certificate, this.keys.certificate);
    const validUntil = new Date(Date.now() + this.settings.metadata_valid_duration).toISOString();
    return xml.replace(/<EntityDescriptor\b/, `<EntityDescriptor validUntil="${validUntil}"`);
  }

  /**
   * How the browser goes to the identity provider with an AuthnRequest: a redirect URL (HTTP-Redirect binding), or
   * an HTML page that posts it (HTTP-POST binding).
   */
  async authnRequest(relayState = ''): Promise<{ redirect: string } | { form: string }> {
    const saml = this.saml();
    if (this.idp.sso.binding === HTTP_POST) return { form: await saml.getAuthorizeFormAsync(relayState) };
    return { redirect: await saml.getAuthorizeUrlAsync(relayState, undefined, {}) };
  }

  /**
   * The profile of a POSTed `SAMLResponse` that validates: signed by the IdP (its metadata's certificates), issued
   * by it, for this audience, within its time conditions and `max_issue_delay`, in response to an AuthnRequest of
   * ours (unless `allow_idp_initiated`, and then with the configured `relay_state`).
   *
   * @throws SamlRefusedError (403) with the reason, for the log.
   */
  async validateLogin(fields: Readonly<Record<string, string>>): Promise<Profile> {
    if (!fields.SAMLResponse) throw new SamlRefusedError('no SAMLResponse');
    let result: { profile: Profile | null; loggedOut: boolean };
    try {
      result = await this.saml().validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse });
    } catch (err) {
      throw new SamlRefusedError(err instanceof Error ? err.message : String(err));
    }
    if (!result.profile || result.loggedOut) throw new SamlRefusedError('not a login response');
    // node-saml checks the issuer of logout messages only: an assertion must come from the IdP of the metadata too.
    if (result.profile.issuer !== this.idp.entityId) throw new SamlRefusedError(`an assertion of another issuer (${String(result.profile.issuer).slice(0, 200)})`);
    if (!result.profile.inResponseTo && (fields.RelayState ?? '') !== this.settings.relay_state) throw new SamlRefusedError('an IdP-initiated response with another RelayState');
    return result.profile;
  }

  /**
   * Where the browser goes to end its session at the IdP (a signed-or-not LogoutRequest for the session's NameID and
   * SessionIndex), when single logout is on and the IdP has a logout endpoint.
   */
  async logoutUrl(external: ExternalSession): Promise<string | undefined> {
    if (!this.settings.single_logout || !this.idp.sloUrl) return undefined;
    const profile: Profile = { issuer: this.idp.entityId, nameID: external.nameID, nameIDFormat: external.nameIDFormat ?? this.settings.name_id_format, ...(external.sessionIndex ? { sessionIndex: external.sessionIndex } : {}) };
    return this.saml().getLogoutUrlAsync(profile, '', {});
  }

  /**
   * A logout message of the IdP on the redirect binding (`GET /api/saml/slo`): a LogoutRequest must be signed (so
   * nobody else can end a user's sessions), a LogoutResponse must answer a LogoutRequest of ours when it says so.
   *
   * @throws SamlRefusedError (403).
   */
  async validateRedirectLogout(query: Parameters<SAML['validateRedirectAsync']>[0], originalQuery: string): Promise<LogoutMessage> {
    if (query.SAMLRequest !== undefined && typeof query.Signature !== 'string') throw new SamlRefusedError('an unsigned LogoutRequest');
    return this.logoutMessage(() => this.saml().validateRedirectAsync(query, originalQuery));
  }

  /** The same on the POST binding (`POST /api/saml/slo`): XML signatures. */
  async validatePostLogout(fields: Readonly<Record<string, string>>): Promise<LogoutMessage> {
    const saml = this.saml();
    return this.logoutMessage(() => (fields.SAMLRequest ? saml.validatePostRequestAsync({ SAMLRequest: fields.SAMLRequest }) : saml.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse ?? '' })));
  }

  private async logoutMessage(validate: () => Promise<{ profile: Profile | null; loggedOut: boolean }>): Promise<LogoutMessage> {
    let result: { profile: Profile | null; loggedOut: boolean };
    try {
      result = await validate();
    } catch (err) {
      throw new SamlRefusedError(err instanceof Error ? err.message : String(err));
    }
    if (!result.loggedOut) throw new SamlRefusedError('not a logout message');
    return result.profile ? { kind: 'request', profile: result.profile } : { kind: 'response' };
  }

  /** The IdP's logout endpoint with our LogoutResponse to its LogoutRequest. */
  async logoutResponseUrl(request: Profile, relayState: string): Promise<string | undefined> {
    if (!this.idp.sloUrl) return undefined;
    return this.saml().getLogoutResponseUrlAsync(request, relayState, {}, true);
  }
}
