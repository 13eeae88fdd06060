import { readFile } from 'node:fs/promises';
import { parseStringPromise, processors } from 'xml2js';
import type { AuthSamlConfig } from '../config';
import { SamlConfigError } from './saml-errors';

export const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** What the service provider needs of the identity provider's metadata. */
export interface IdpMetadata {
  entityId: string;
  /** The certificates its messages are signed with, PEM. */
  certificates: string[];
  /** Where AuthnRequests go, and with which binding (redirect preferred). */
  sso: { url: string; binding: typeof HTTP_REDIRECT | typeof HTTP_POST };
  /** Where LogoutRequests go (redirect binding), when it has single logout. */
  sloUrl?: string;
}

/** An element as xml2js reads it (prefixes stripped): attributes in `$`, text in `_`, children by local name. */
interface XmlNode {
  $?: Record<string, string>;
  _?: string;
  [child: string]: XmlNode[] | Record<string, string> | string | undefined;
}

const kids = (node: XmlNode | undefined, name: string): XmlNode[] => {
  const v = node?.[name];
  return Array.isArray(v) ? v : [];
};
const text = (node: XmlNode | string): string => (typeof node === 'string' ? node : (node._ ?? ''));
const pem = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64.replace(/\s+/g, '').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;

/**
 * Reads IdP metadata XML (an EntityDescriptor, or the first one with an IDPSSODescriptor of an EntitiesDescriptor).
 *
 * @throws Error saying what is missing or malformed.
 * @example (await parseIdpMetadata(xml)).sso.url; // 'https://idp.example/sso'
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata> {
  const fail = (msg: string): never => {
    throw new Error(msg);
  };
  let doc: Record<string, XmlNode>;
  try {
    doc = (await parseStringPromise(xml, { tagNameProcessors: [processors.stripPrefix], explicitRoot: true, explicitArray: true })) as Record<string, XmlNode>;
  } catch {
    return fail('not well-formed XML');
  }
  const entities = doc.EntityDescriptor ? [doc.EntityDescriptor] : kids(doc.EntitiesDescriptor, 'EntityDescriptor');
  const entity = entities.find((e) => kids(e, 'IDPSSODescriptor').length > 0) ?? fail('no EntityDescriptor with an IDPSSODescriptor');
  const idp = kids(entity, 'IDPSSODescriptor')[0]!;
  const entityId = entity.$?.entityID || fail('no entityID');
  const certificates = kids(idp, 'KeyDescriptor')
    .filter((k) => (k.$?.use || 'signing') === 'signing')
    .flatMap((k) => kids(k, 'KeyInfo').flatMap((i) => kids(i, 'X509Data')).flatMap((d) => kids(d, 'X509Certificate')))
    .map((c) => pem(text(c)))
    .filter((c) => c.length > 60);
  if (certificates.length === 0) fail('no signing certificate');
  const services = (name: string) => kids(idp, name).map((s) => ({ binding: s.$?.Binding ?? '', url: s.$?.Location ?? '' })).filter((s) => URL.canParse(s.url));
  const sso = services('SingleSignOnService');
  const redirect = sso.find((s) => s.binding === HTTP_REDIRECT);
  const post = sso.find((s) => s.binding === HTTP_POST);
  const chosen = redirect ? { url: redirect.url, binding: HTTP_REDIRECT } : post ? { url: post.url, binding: HTTP_POST } : fail('no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding');
  const slo = services('SingleLogoutService').find((s) => s.binding === HTTP_REDIRECT);
  return { entityId, certificates, sso: chosen as IdpMetadata['sso'], ...(slo ? { sloUrl: slo.url } : {}) };
}

/** The metadata text of `idp_metadata` (XML, or base64 of it). */
function inlineText(value: string): string {
  const text = value.trim();
  return text.startsWith('<') ? text : Buffer.from(text, 'base64').toString('utf8');
}

/** How long metadata fetched from `idp_metadata_url` is kept before it is fetched again. */
const URL_CACHE_MS = 5 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_METADATA_BYTES = 1 << 20;

/**
 * The identity provider's metadata from `idp_metadata`, `idp_metadata_path` or `idp_metadata_url` (the first set),
 * the URL's kept {@link URL_CACHE_MS} per URL (so a changed URL is read at once).
 *
 * @example
 *   const sources = new IdpMetadataSource();
 *   (await sources.load(settings)).entityId;
 */
export class IdpMetadataSource {
  private readonly cache = new Map<string, { at: number; metadata: IdpMetadata }>();

  constructor(private readonly options: { fetch?: typeof fetch; now?: () => number } = {}) {}

  /** @throws SamlConfigError naming the setting at fault. */
  async load(settings: AuthSamlConfig): Promise<IdpMetadata> {
    if (settings.idp_metadata !== '') return parse(inlineText(settings.idp_metadata), 'auth.saml.idp_metadata');
    if (settings.idp_metadata_path !== '') {
      let text: string;
      try {
        text = await readFile(settings.idp_metadata_path, 'utf8');
      } catch {
        throw new SamlConfigError('auth.saml.idp_metadata_path cannot be read');
      }
      return parse(text, 'auth.saml.idp_metadata_path');
    }
    if (settings.idp_metadata_url !== '') return this.fromUrl(settings.idp_metadata_url);
    throw new SamlConfigError('auth.saml.idp_metadata, idp_metadata_path or idp_metadata_url is required');
  }

  private async fromUrl(url: string): Promise<IdpMetadata> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.cache.get(url);
    if (hit && now - hit.at < URL_CACHE_MS) return hit.metadata;
    let text: string;
    try {
      const res = await (this.options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
      if (text.length > MAX_METADATA_BYTES) throw new Error('too large');
    } catch (err) {
      throw new SamlConfigError(`auth.saml.idp_metadata_url cannot be fetched (${err instanceof Error ? err.message : String(err)})`);
    }
    const metadata = await parse(text, 'auth.saml.idp_metadata_url');
    this.cache.set(url, { at: now, metadata });
    return metadata;
  }
}

async function parse(text: string, setting: string): Promise<IdpMetadata> {
  try {
    return await parseIdpMetadata(text);
  } catch (err) {
    throw new SamlConfigError(`${setting} is no usable IdP metadata: ${err instanceof Error ? err.message : String(err)}`);
  }
}
