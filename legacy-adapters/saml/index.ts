import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import { getLogout, getMetadata, getSlo, postAcs, postSlo, startLogin } from './saml-routes';

/** SAML is the enterprise edition's (and answers only while `[auth.saml] enabled`, else 404 as an unknown route). */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const tags = ['saml', 'enterprise'];
const off = 'Enterprise edition only, while `auth.saml` is enabled (configuration, or PUT /api/admin/settings): 404 otherwise.';
const sloParams = [
  { name: 'SAMLRequest', in: 'query', type: 'string', description: "The IdP's LogoutRequest (redirect binding: deflated, base64, signed with SigAlg and Signature)." },
  { name: 'SAMLResponse', in: 'query', type: 'string', description: "The IdP's LogoutResponse to ours." },
  { name: 'RelayState', in: 'query', type: 'string' },
] as const;
/** Outside the enterprise edition an unknown /api route asks for credentials first. */
const elsewhere = { description: 'Other editions, without credentials (as any unknown /api route).' };
const slo = `${off} Also 404 unless single_logout. A LogoutRequest (it must be signed) ends the sessions of its NameID (and SessionIndex) and is answered with a LogoutResponse to the IdP; a LogoutResponse ends at the login page. 400 when there is neither, 403 "Authentication failed" when it does not validate.`;

/**
 * The SAML service provider (pkg/saml): anonymous routes, as the login form's. `GET /login/saml` (outside /api)
 * starts a sign-in; the IdP answers at `POST /api/saml/acs`.
 */
export const samlArea = defineArea({
  name: 'saml',
  routes: [
    {
      method: 'get', path: '/login/saml', guard: guard.public, servedIn: enterprise, handler: startLogin,
      operationId: 'loginSAML', tags, summary: 'Start a SAML sign-in: to the IdP with an AuthnRequest.', description: off,
      responses: { 302: { description: "To the IdP's single sign-on URL (HTTP-Redirect binding); with the HTTP-POST binding, 200 and a form that posts it." }, 404: {} },
    },
    {
      method: 'get', path: '/api/saml/metadata', guard: guard.public, servedIn: enterprise, handler: getMetadata,
      operationId: 'getMetadata', tags, summary: "It exposes the SP (Svc's) metadata for the IdP's consumption.",
      description: `${off} XML: the entity id, the assertion consumer and (with single_logout) logout URLs under server.root_url, the SP certificate.`,
      responses: { 200: { description: 'The SP metadata (application/xml).' }, 401: elsewhere, 404: {} },
    },
    {
      method: 'post', path: '/api/saml/acs', guard: guard.public, servedIn: enterprise, handler: postAcs,
      operationId: 'postACS', tags, summary: 'It performs Assertion Consumer Service (ACS).',
      description: `${off} A form post of SAMLResponse (and RelayState). A response signed by the IdP, for this SP, in time and answering an AuthnRequest of ours (or IdP-initiated, when allowed) signs the user in: the session cookie is set as by POST /login, the user created on a first login when allow_sign_up, roles mapped by role_values_* and org_mapping.`,
      params: [{ name: 'RelayState', in: 'query', type: 'string' }],
      responses: {
        302: { description: 'Signed in: to the home page, with the session cookie.' },
        400: { description: 'A body that is no form.' },
        401: { description: 'Sign up is disabled (a first login with allow_sign_up false), or User is disabled; other editions, without credentials.' },
        403: { description: 'Authentication failed: the response does not validate (signature, issuer, audience, time, InResponseTo); or the user is in no allowed organization.' },
        404: {},
      },
    },
    {
      method: 'get', path: '/api/saml/slo', guard: guard.public, servedIn: enterprise, handler: getSlo,
      operationId: 'getSLO', tags, summary: 'It performs Single Logout (SLO) callback.', description: slo, params: [...sloParams],
      responses: { 302: { description: "To the IdP with our LogoutResponse, or to the login page." }, 400: {}, 401: elsewhere, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/saml/slo', guard: guard.public, servedIn: enterprise, handler: postSlo,
      operationId: 'postSLO', tags, summary: 'It performs Single Logout (SLO) callback.', description: `${slo} POST binding: form fields (or the query's), XML signatures.`, params: [...sloParams],
      responses: { 302: { description: "To the IdP with our LogoutResponse, or to the login page." }, 400: {}, 401: elsewhere, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/logout/saml', guard: guard.public, servedIn: enterprise, handler: getLogout,
      operationId: 'getSAMLLogout', tags, summary: 'GetLogout initiates single logout process.',
      description: `${off} The session of the cookie ends; with single_logout, one that came from the IdP goes on to its logout with a LogoutRequest.`,
      responses: { 302: { description: "To the IdP's single logout URL, or to the login page." }, 401: elsewhere, 404: {} },
    },
  ],
});
