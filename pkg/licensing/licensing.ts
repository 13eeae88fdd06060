import { createPublicKey, type KeyObject } from 'node:crypto';
import { licenseKind } from '../../apis';
import { type LicenseSpec, SECURE_LICENSE_TOKEN } from '../../apis/settings.svc.app/v0alpha1/license';
import { notFoundAsUndefined, StatusError } from '../errors';
import type { Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { type LicenseClaims, LicenseTokenError, sameInstance, tokenView, type VerifiedLicense, verifyLicenseToken } from './license-token';

/** The namespace the license lives in: one for the whole installation, whichever organization asks. */
export const LICENSING_NAMESPACE = 'svc-licensing';
/** The name of the one License object. */
const NAME = 'license';
/** How long the license server may take to answer a renewal. */
const RENEW_TIMEOUT_MS = 30_000;

export interface LicensingOptions {
  /** The license authority's public key (PEM); '' when none is configured: no license verifies. */
  publicKey: string;
  /** This instance's root URL (`[server] root_url`): a license's `sub` must name it. */
  instance: string;
  /** Where renewals are asked for; '' turns renewal off. */
  serverUrl: string;
  /** The clock (tests move it past an expiry). */
  now?: () => number;
}

/** What the license server is told at a renewal, besides the current token: who is asking and how many users are active. */
export interface RenewalStats {
  active_users: number;
  active_viewers: number;
  active_admins_and_editors: number;
}

const notFound = (message: string) => new StatusError(404, 'NotFound', message);

/**
 * The enterprise edition's license: a JWT signed by the license authority whose public key the configuration holds,
 * installed through the API and stored as the one License object of {@link LICENSING_NAMESPACE} (every replica
 * reads the same), the token itself encrypted at rest. Every read verifies the stored token again with the
 * configured key and clock, so a license that expired, or that a new key no longer verifies, is no longer valid.
 *
 * @example
 *   const licensing = new Licensing(secureInternalRegistry, { publicKey: pem, instance: config.server.root_url, serverUrl: '' });
 *   await licensing.install(jwt); // the claims; 400 for a bad token, nothing stored
 *   await licensing.hasValidLicense(); // true
 */
export class Licensing {
  private readonly ctx: RequestContext = { requester: { identity: 'service:licensing' }, namespace: LICENSING_NAMESPACE, fieldManager: 'licensing' };
  private readonly key?: KeyObject;
  private readonly now: () => number;

  constructor(
    private readonly registry: Registry,
    private readonly opts: LicensingOptions,
  ) {
    // The configuration checked the key at load: it reads.
    this.key = opts.publicKey ? createPublicKey(opts.publicKey) : undefined;
    this.now = opts.now ?? (() => Date.now());
  }

  /**
   * Verifies `token` and, when it holds, stores it over the installed license. A token that does not verify
   * (malformed, another signer, expired, another instance) is a 400 naming why, and nothing is stored.
   */
  async install(token: string): Promise<Record<string, unknown>> {
    const verified = this.verify(token);
    await this.store(token, verified);
    return tokenView(verified.claims);
  }

  /** The installed license's claims as the anchor's Token, whether or not it is still valid; undefined when none. */
  async token(): Promise<Record<string, unknown> | undefined> {
    const stored = await this.stored();
    return stored && tokenView(stored.spec.claims);
  }

  /** Whether a license is installed that verifies now (signature with the configured key, dates, instance). */
  async hasValidLicense(): Promise<boolean> {
    return (await this.valid()) !== undefined;
  }

  /** The expiry of the valid license (Unix seconds), 0 when there is none: the anchor's `Expiry()`. */
  async expiry(): Promise<number> {
    return (await this.valid())?.claims.exp ?? 0;
  }

  /**
   * Removes the installed license of `instance` (the root URL the license is for): 422 when `instance` is not this
   * instance; nothing installed is no error (the anchor's 202 "removed or did not exist").
   */
  async remove(instance: string): Promise<void> {
    if (!sameInstance(instance, this.opts.instance)) throw new StatusError(422, 'Invalid', `Incorrect instance name provided: this instance is ${this.opts.instance}`);
    await this.registry.init();
    await this.registry.delete(this.ctx, licenseKind, NAME).catch(notFoundAsUndefined);
  }

  /**
   * Asks the license server for a new token for the installed license: POSTs `{token, instance, stats}` as JSON to
   * `[enterprise] license_server_url` and installs the token it answers (`{"token": "<jwt>"}`, or the JWT as text),
   * verified as any other and required to be for the same license (`lid`). 404 when renewal is not configured or no
   * license is installed; 502 when the license server fails or answers no valid token (nothing is stored then).
   */
  async renew(stats: RenewalStats): Promise<Record<string, unknown>> {
    if (!this.opts.serverUrl) throw notFound('License renewal is not configured: [enterprise] license_server_url is not set');
    const stored = await this.stored();
    if (!stored) throw notFound('No license token is installed');
    const current = (await this.registry.secureValues(licenseKind, LICENSING_NAMESPACE, NAME))[SECURE_LICENSE_TOKEN];
    if (!current) throw notFound('No license token is installed');
    const answer = await this.askLicenseServer({ token: current, instance: this.opts.instance, stats });
    let verified: VerifiedLicense;
    try {
      verified = this.verify(answer);
    } catch (err) {
      if (err instanceof StatusError) throw new StatusError(502, 'InternalError', `The license server answered a token that does not verify: ${err.message}`);
      throw err;
    }
    if (verified.claims.lid !== stored.spec.claims.lid) {
      throw new StatusError(502, 'InternalError', `The license server answered a token for license ${verified.claims.lid}, not for the installed license ${stored.spec.claims.lid}`);
    }
    await this.store(answer, verified);
    return tokenView(verified.claims);
  }

  private verify(token: string): VerifiedLicense {
    if (!this.key) throw StatusError.badRequest('No license can be verified: the license public key is not configured ([enterprise] license_public_key)');
    try {
      return verifyLicenseToken(token, this.key, { instance: this.opts.instance, now: this.now() });
    } catch (err) {
      if (err instanceof LicenseTokenError) throw StatusError.badRequest(err.message);
      throw err;
    }
  }

  /** The stored license, verified again now from its token; undefined when none or it no longer verifies. */
  private async valid(): Promise<VerifiedLicense | undefined> {
    if (!this.key || !(await this.stored())) return undefined;
    const token = (await this.registry.secureValues(licenseKind, LICENSING_NAMESPACE, NAME))[SECURE_LICENSE_TOKEN];
    if (!token) return undefined;
    try {
      return verifyLicenseToken(token, this.key, { instance: this.opts.instance, now: this.now() });
    } catch (err) {
      if (err instanceof LicenseTokenError) return undefined;
      throw err;
    }
  }

  private async stored(): Promise<Resource<LicenseSpec> | undefined> {
    await this.registry.init();
    return this.registry.get(this.ctx, licenseKind, NAME).catch(notFoundAsUndefined);
  }

  private async store(token: string, { alg, claims }: VerifiedLicense): Promise<void> {
    await this.registry.init();
    // The anchor's claims only: whatever else the token carries stays in the (encrypted) token.
    const spec: LicenseSpec = { alg, claims: tokenView(claims) as LicenseClaims & LicenseSpec['claims'], secure: { [SECURE_LICENSE_TOKEN]: token.trim() } };
    await this.registry.upsert(this.ctx, licenseKind, NAME, () => ({ apiVersion: `${licenseKind.group}/${licenseKind.version}`, kind: licenseKind.kind, metadata: { name: NAME }, spec }));
  }

  /** One POST to the license server; its answer's token, or a 502 saying what went wrong. */
  private async askLicenseServer(body: object): Promise<string> {
    const url = this.opts.serverUrl;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(RENEW_TIMEOUT_MS),
        redirect: 'error',
      });
      text = await res.text();
    } catch (err) {
      throw new StatusError(502, 'InternalError', `The license server could not be reached: ${fetchFailure(err)}`);
    }
    if (!res.ok) throw new StatusError(502, 'InternalError', `The license server answered ${res.status} to the renewal`);
    const trimmed = text.trim();
    if (trimmed.startsWith('{')) {
      try {
        const token = (JSON.parse(trimmed) as { token?: unknown }).token;
        if (typeof token === 'string') return token;
      } catch {
        // Not JSON after all: reported below.
      }
      throw new StatusError(502, 'InternalError', 'The license server answered no token (expected {"token": "<jwt>"} or the token as text)');
    }
    return trimmed;
  }
}

/**
 * Why a fetch failed, in a few words: the network error under fetch's own "fetch failed" (`connect ECONNREFUSED
 * 127.0.0.1:9`, `getaddrinfo ENOTFOUND ...`), or the timeout. Read by shape: the error may come from another realm.
 */
function fetchFailure(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  if (e?.name === 'TimeoutError') return `no answer within ${RENEW_TIMEOUT_MS / 1000} s`;
  const cause = e?.cause;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof e?.message === 'string' ? e.message : String(err);
}
