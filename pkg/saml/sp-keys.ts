import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AuthSamlConfig } from '../config';
import { SamlConfigError } from './saml-errors';

/** The service provider's key pair, as PEM. */
export interface SpKeys {
  certificate: string;
  privateKey: string;
}

/**
 * PEM from a setting's value: PEM itself, base64 of PEM (the anchor's "base64-encoded string"), or base64 of DER.
 */
function pemOf(value: string, label: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  const text = value.trim();
  if (text.includes('-----BEGIN')) return text;
  const decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  const asText = decoded.toString('utf8');
  if (asText.includes('-----BEGIN')) return asText;
  return `-----BEGIN ${label}-----\n${decoded.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

async function settingText(settings: AuthSamlConfig, key: 'certificate' | 'private_key'): Promise<string> {
  if (settings[key] !== '') return settings[key];
  const file = settings[`${key}_path`];
  if (file === '') throw new SamlConfigError(`auth.saml.${key} or auth.saml.${key}_path is required`);
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new SamlConfigError(`auth.saml.${key}_path cannot be read`);
  }
}

/**
 * The service provider's certificate and private key from `certificate`/`certificate_path` and
 * `private_key`/`private_key_path`, checked to be a certificate and a private key of the same pair.
 *
 * @throws SamlConfigError naming the setting at fault (never its value).
 */
export async function loadSpKeys(settings: AuthSamlConfig): Promise<SpKeys> {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pemOf(await settingText(settings, 'certificate'), 'CERTIFICATE'));
  } catch (err) {
    throw err instanceof SamlConfigError ? err : new SamlConfigError('auth.saml.certificate is not an X.509 certificate');
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pemOf(await settingText(settings, 'private_key'), 'PRIVATE KEY'));
  } catch (err) {
    throw err instanceof SamlConfigError ? err : new SamlConfigError('auth.saml.private_key is not a private key');
  }
  if (!cert.checkPrivateKey(key)) throw new SamlConfigError('auth.saml.private_key does not belong to auth.saml.certificate');
  return { certificate: cert.toString(), privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
