import express, { type Request, type Response } from 'express';
import { clearSessionCookie, homePath, loginPath, signIn, signOut } from '../../pkg/auth/authentication/login-session';
import { StatusError } from '../../pkg/errors';
import { type LogoutMessage, type SamlProvider, SamlRefusedError, samlIdentity, SamlIdentityError, samlNotFound, syncSamlUser } from '../../pkg/saml';
import type { AdapterDeps } from '../shared';

/**
 * The enterprise edition's SAML service provider (pkg/saml does the protocol): sign-in (`GET /login/saml` →
 * the IdP → `POST /api/saml/acs`), its metadata, and logout, single logout included. Every route answers 404 as
 * an unknown route while SAML is off; a SAML message that does not validate is 403 "Authentication failed", its
 * reason logged only.
 */

/** The org a SAML user lands in when the assertion maps none (the anchor's auto_assign_org_id default). */
const DEFAULT_ORG_ID = 1;

/**
 * The fields of an HTML form POST (`application/x-www-form-urlencoded`), over the query's: these routes are public,
 * mounted before the JSON parser, so the form is read here (limit `server.max_request_body_bytes`).
 */
async function formFields(req: Request, res: Response, deps: AdapterDeps): Promise<Record<string, string>> {
  const parse = express.urlencoded({ extended: false, limit: deps.config.server.max_request_body_bytes });
  await new Promise<void>((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const fields: Record<string, string> = {};
  for (const source of [req.query, req.body as unknown]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [k, v] of Object.entries(source)) if (typeof v === 'string') fields[k] = v;
  }
  return fields;
}

/** Maps a body the parser refused to a 4xx (it throws errors carrying their status). */
async function formFieldsOr4xx(req: Request, res: Response, deps: AdapterDeps): Promise<Record<string, string>> {
  try {
    return await formFields(req, res, deps);
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 413) throw new StatusError(413, 'RequestEntityTooLarge', 'request body too large');
    throw StatusError.badRequest('bad request data');
  }
}

/** GET /login/saml: the browser goes to the IdP with an AuthnRequest (or gets the form that posts it). */
export async function startLogin(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await deps.saml.provider();
  const request = await provider.authnRequest();
  if ('redirect' in request) res.redirect(302, request.redirect);
  else res.type('html').send(request.form);
}

/** GET /api/saml/metadata: the service provider metadata XML. */
export async function getMetadata(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await deps.saml.provider();
  res.type('application/xml').send(provider.metadata());
}

/** Logs why a SAML message was refused, and passes the refusal on. */
function refused(deps: AdapterDeps, what: string, err: unknown): never {
  if (err instanceof SamlRefusedError) deps.log.warn(`SAML ${what} refused`, { reason: err.why });
  throw err;
}

/**
 * POST /api/saml/acs: the IdP's response. A valid one signs the browser in as the user it names (created when
 * `allow_sign_up`), with a session cookie as the login form's, and sends it home.
 */
export async function postAcs(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await deps.saml.provider();
  const fields = await formFieldsOr4xx(req, res, deps);
  let identity;
  try {
    identity = samlIdentity(provider.settings, await provider.validateLogin(fields), DEFAULT_ORG_ID);
  } catch (err) {
    if (err instanceof SamlIdentityError) {
      deps.log.warn('SAML login refused', { reason: err.message });
      throw new StatusError(403, 'Forbidden', err.message);
    }
    refused(deps, 'response', err);
  }
  const user = await syncSamlUser(deps.users, identity, {
    allowSignUp: provider.settings.allow_sign_up,
    skipOrgRoleSync: provider.settings.skip_org_role_sync,
    defaultOrgId: DEFAULT_ORG_ID,
    defaultRole: deps.config.users.auto_assign_org_role,
    log: deps.log,
  });
  await signIn(req, res, deps, user, { authModule: 'saml', nameID: identity.nameID, ...(identity.nameIDFormat ? { nameIDFormat: identity.nameIDFormat } : {}), ...(identity.sessionIndex ? { sessionIndex: identity.sessionIndex } : {}) });
  res.redirect(302, homePath(deps.config));
}

/**
 * GET /api/logout/saml: the session of the cookie ends; with `single_logout`, a session that came from the IdP
 * goes on to the IdP's logout with a LogoutRequest, else to the login page.
 */
export async function getLogout(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await deps.saml.provider();
  const record = await signOut(req, res, deps);
  const url = record?.external ? await provider.logoutUrl(record.external) : undefined;
  res.redirect(302, url ?? loginPath(deps.config));
}

/** The provider, when single logout is on (the SLO endpoint is not there otherwise). */
async function sloProvider(deps: AdapterDeps): Promise<SamlProvider> {
  const provider = await deps.saml.provider();
  if (!provider.settings.single_logout) throw samlNotFound();
  return provider;
}

/**
 * After a validated logout message: the IdP's LogoutRequest ends the sessions of its NameID (and SessionIndex) on
 * every replica and is answered with a LogoutResponse; the LogoutResponse to ours ends at the login page.
 */
async function finishLogout(req: Request, res: Response, deps: AdapterDeps, provider: SamlProvider, message: LogoutMessage, relayState: string): Promise<void> {
  if (message.kind === 'response') {
    await signOut(req, res, deps);
    res.redirect(302, loginPath(deps.config));
    return;
  }
  const { nameID, sessionIndex } = message.profile;
  await deps.sessions.endExternal('saml', nameID, typeof sessionIndex === 'string' ? sessionIndex : undefined);
  clearSessionCookie(res, deps.config);
  res.redirect(302, (await provider.logoutResponseUrl(message.profile, relayState)) ?? loginPath(deps.config));
}

const missingMessage = () => StatusError.badRequest('SAMLRequest or SAMLResponse is required');

/** GET /api/saml/slo: a LogoutRequest or LogoutResponse of the IdP on the redirect binding. */
export async function getSlo(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await sloProvider(deps);
  const q = req.query;
  if (typeof q.SAMLRequest !== 'string' && typeof q.SAMLResponse !== 'string') throw missingMessage();
  const original = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  let message: LogoutMessage;
  try {
    message = await provider.validateRedirectLogout(q, original);
  } catch (err) {
    refused(deps, 'logout message', err);
  }
  await finishLogout(req, res, deps, provider, message, typeof q.RelayState === 'string' ? q.RelayState : '');
}

/** POST /api/saml/slo: the same on the POST binding (form fields, or the query's). */
export async function postSlo(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const provider = await sloProvider(deps);
  const fields = await formFieldsOr4xx(req, res, deps);
  if (!fields.SAMLRequest && !fields.SAMLResponse) throw missingMessage();
  let message: LogoutMessage;
  try {
    message = await provider.validatePostLogout(fields);
  } catch (err) {
    refused(deps, 'logout message', err);
  }
  await finishLogout(req, res, deps, provider, message, fields.RelayState ?? '');
}
