export { AUTHENTICATION_FAILED, SamlConfigError, SamlRefusedError, samlNotFound } from './saml-errors';
export { type IdpMetadata, parseIdpMetadata } from './idp-metadata';
export { RequestIds } from './request-ids';
export { samlIdentity, SamlIdentityError, type SamlIdentity } from './saml-identity';
export { effectiveSamlSettings, SAML_SECTION } from './saml-settings';
export { type LogoutMessage, SamlProvider, SamlService, type SamlServiceDeps, spUrls } from './saml-service';
export { SAML_REQUESTER, signUpDisabled, syncSamlUser } from './saml-users';
