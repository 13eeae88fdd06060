import { StatusError } from '../errors';

/**
 * The effective SAML settings cannot be used (a certificate that is none, unreadable IdP metadata): the SAML
 * routes answer 404 as when SAML is off, and the server logs the reason, which names settings, never values.
 */
export class SamlConfigError extends Error {
  override name = 'SamlConfigError';
}

/** What a refused SAML message answers (the anchor's 403); the reason goes to the log only. */
export const AUTHENTICATION_FAILED = 'Authentication failed';

/** A SAML message (response, logout request) that does not validate: 403, the reason logged, not answered. */
export class SamlRefusedError extends StatusError {
  constructor(readonly why: string) {
    super(403, 'Forbidden', AUTHENTICATION_FAILED);
  }
}

/** SAML is off (not the enterprise edition, not enabled, or not usable): 404, as a route that is not there. */
export const samlNotFound = () => new StatusError(404, 'NotFound', 'Not found');
