// @peculiar/x509 resolves its crypto provider through tsyringe, which needs a Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { createSign, randomBytes, webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML identity provider in the test process: its own RSA key and self-signed certificate, its metadata served
 * over HTTP (what `auth.saml.idp_metadata_url` reads), and the messages an IdP sends, built and signed as one does
 * (xml-crypto: an enveloped RSA-SHA256 signature on the assertion; a signed query on the redirect binding).
 */

type WebCrypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
type KeyPair = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'];
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export interface KeyAndCert {
  key: string;
  cert: string;
}

/** A new RSA key and a self-signed certificate for it, PEM. */
export async function keyAndCert(cn: string): Promise<KeyAndCert> {
  const crypto = webcrypto as unknown as WebCrypto;
  const keys = (await crypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as KeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    { serialNumber: randomBytes(8).toString('hex').replace(/^./, '1'), name: [{ CN: [cn] }], notBefore: new Date(Date.now() - 3600_000), notAfter: new Date(Date.now() + 86_400_000), keys, signingAlgorithm: RSA },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { cert: `${cert.toString('pem')}\n`, key: `${x509.PemConverter.encode(pkcs8, 'PRIVATE KEY')}\n` };
}

const certBody = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const iso = (ms: number) => new Date(ms).toISOString();
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export interface ResponseOptions {
  /** The AuthnRequest answered; none for an IdP-initiated response. */
  inResponseTo?: string;
  audience: string;
  acs: string;
  nameID: string;
  attributes?: Record<string, string[]>;
  /** Attribute names that also carry a FriendlyName: name → friendly name. */
  friendlyNames?: Record<string, string>;
  /** Default now; the assertion is valid from a minute before to five minutes after. */
  issuedAt?: number;
  /** Signs with this pair instead of the IdP's. */
  signWith?: KeyAndCert;
  issuer?: string;
  sessionIndex?: string;
}

export class TestIdp {
  readonly entityId: string;
  private server?: http.Server;
  url = '';

  private constructor(
    readonly pair: KeyAndCert,
    name: string,
  ) {
    this.entityId = `https://${name}.idp.test/metadata`;
  }

  static async start(name = 'test'): Promise<TestIdp> {
    const idp = new TestIdp(await keyAndCert(`${name} IdP`), name);
    idp.server = http.createServer((req, res) => {
      if (req.url === '/metadata') res.writeHead(200, { 'Content-Type': 'application/samlmetadata+xml' }).end(idp.metadata());
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => idp.server!.listen(0, '127.0.0.1', resolve));
    idp.url = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}`;
    return idp;
  }

  get ssoUrl(): string {
    return `${this.url}/sso`;
  }

  get sloUrl(): string {
    return `${this.url}/slo`;
  }

  get metadataUrl(): string {
    return `${this.url}/metadata`;
  }

  metadata(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(this.pair.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.sloUrl}"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  /** A Response with one assertion signed by the IdP (or `signWith`), base64 as the POST binding carries it. */
  response(o: ResponseOptions): string {
    const now = o.issuedAt ?? Date.now();
    const issuer = o.issuer ?? this.entityId;
    const inResponseTo = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
    const attrs = Object.entries(o.attributes ?? {})
      .map(([name, values]) => {
        const friendly = o.friendlyNames?.[name] ? ` FriendlyName="${esc(o.friendlyNames[name]!)}"` : '';
        return `<saml:Attribute Name="${esc(name)}"${friendly} NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values.map((v) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
      })
      .join('');
    const assertionId = `_a${randomBytes(16).toString('hex')}`;
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(o.acs)}"${inResponseTo}>` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient">${esc(o.nameID)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(now + 300_000)}" Recipient="${esc(o.acs)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${iso(now + 300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${esc(o.sessionIndex ?? `_s${randomBytes(8).toString('hex')}`)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
      `</saml:Assertion></samlp:Response>`;
    const pair = o.signWith ?? this.pair;
    const sig = new SignedXml({ privateKey: pair.key, publicCert: pair.cert, signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
    sig.addReference({
      xpath: `//*[local-name(.)='Assertion' and @ID='${assertionId}']`,
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    });
    sig.computeSignature(xml, { location: { reference: `//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']`, action: 'after' } });
    return Buffer.from(sig.getSignedXml()).toString('base64');
  }

  /**
   * The query of a LogoutRequest of the IdP on the redirect binding (deflated, base64, signed over
   * `SAMLRequest=…&RelayState=…&SigAlg=…` unless `unsigned`).
   */
  logoutRequestQuery(o: { destination: string; nameID: string; sessionIndex?: string; unsigned?: boolean; relayState?: string }): string {
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(Date.now())}" Destination="${esc(o.destination)}">` +
      `<saml:Issuer>${esc(this.entityId)}</saml:Issuer>` +
      `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient">${esc(o.nameID)}</saml:NameID>` +
      (o.sessionIndex ? `<samlp:SessionIndex>${esc(o.sessionIndex)}</samlp:SessionIndex>` : '') +
      `</samlp:LogoutRequest>`;
    let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`;
    if (o.relayState) query += `&RelayState=${encodeURIComponent(o.relayState)}`;
    if (o.unsigned) return query;
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = createSign('RSA-SHA256').update(query).sign(this.pair.key, 'base64');
    return `${query}&Signature=${encodeURIComponent(signature)}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The XML of a redirect-binding message (`SAMLRequest` or `SAMLResponse` of a URL): inflated, decoded. */
export function redirectMessage(location: string, param: 'SAMLRequest' | 'SAMLResponse' = 'SAMLRequest'): string {
  const value = new URL(location).searchParams.get(param);
  if (!value) throw new Error(`no ${param} in ${location}`);
  return inflateRawSync(Buffer.from(value, 'base64')).toString('utf8');
}

/** An attribute of the root element of a message. */
export const rootAttribute = (xml: string, name: string): string | undefined => new RegExp(`^[^>]*\\s${name}="([^"]*)"`).exec(xml.replace(/^<\?xml[^>]*>\s*/, ''))?.[1];
