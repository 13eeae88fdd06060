// @peculiar/x509 resolves its crypto provider through tsyringe, which needs a Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import type { Config } from '../config';
import type { Logger } from '../log';

/*
 * The self-signed serving certificate, made as kube-apiserver makes its own when it has none: on first start,
 * into the data folder, then reused. Node's crypto can sign bytes but not build a certificate, hence @peculiar/x509.
 */

/** The names a serving certificate is for, split as X.509 subjectAltName needs them. */
export interface ServingNames {
  dns: string[];
  ips: string[];
}

/** Where the self-signed pair lives under the data folder. */
export function selfSignedPaths(dataDir: string): { certFile: string; keyFile: string } {
  const dir = path.join(dataDir, 'tls');
  return { certFile: path.join(dir, 'server.crt'), keyFile: path.join(dir, 'server.key') };
}

/**
 * The names a client may use to reach this server: localhost, 127.0.0.1, ::1, `server.http_addr` (unless it
 * means every interface), the host of `server.root_url` and the machine's host name.
 *
 * @example
 *   servingNames(config); // { dns: ['localhost', 'build-7'], ips: ['127.0.0.1', '::1'] }
 */
export function servingNames(config: Config): ServingNames {
  const candidates = ['localhost', '127.0.0.1', '::1', config.server.http_addr, new URL(config.server.root_url).hostname, os.hostname()];
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const raw of candidates) {
    const name = raw.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    if (name === '' || name === '0.0.0.0' || name === '::') continue;
    (net.isIP(name) ? ips : dns).add(name);
  }
  return { dns: [...dns], ips: [...ips] };
}

/** The names the certificate does not cover, `[]` when it covers them all. */
export function missingNames(cert: X509Certificate, names: ServingNames): string[] {
  return [...names.dns.filter((n) => cert.checkHost(n) === undefined), ...names.ips.filter((ip) => cert.checkIP(ip) === undefined)];
}

/** The DOM's Crypto and CryptoKeyPair, as @peculiar/x509 names them (this project compiles without the DOM lib). */
type WebCrypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1]>;
type KeyPair = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'];

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const VALIDITY_MS = 365 * 24 * 3600 * 1000;

/** A new ECDSA P-256 key and a one-year self-signed serving certificate for `names`, both PEM. */
export async function generateSelfSigned(names: ServingNames, now = new Date()): Promise<{ cert: string; key: string }> {
  const crypto = webcrypto as unknown as WebCrypto;
  const keys = (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // a positive INTEGER
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: [{ CN: [`dashboard-apiserver@${Math.floor(now.getTime() / 1000)}`] }],
      // An hour back, as kube-apiserver does, so a client whose clock is a little behind still accepts it.
      notBefore: new Date(now.getTime() - 3600 * 1000),
      notAfter: new Date(now.getTime() + VALIDITY_MS),
      keys,
      signingAlgorithm: ALGORITHM,
      extensions: [
        // Its own CA, so that a client can trust it as certificate-authority-data.
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([...names.dns.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))]),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { cert: cert.toString('pem') + '\n', key: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n' };
}

/**
 * Makes sure `<data>/tls/server.crt` and `server.key` exist: kept when present and unexpired (even if they lack
 * a name now configured: clients may have pinned them; a warning names what is missing), made otherwise.
 * The key is written with mode 0600, each file whole (write then rename), so a crash leaves no half pair.
 */
export async function ensureSelfSigned(dataDir: string, names: ServingNames, log: Logger): Promise<{ certFile: string; keyFile: string }> {
  const files = selfSignedPaths(dataDir);
  const existing = readIfPresent(files.certFile);
  if (existing !== undefined && fs.existsSync(files.keyFile)) {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(existing);
    } catch {
      return files; // loading the pair reports what is wrong with it
    }
    if (new Date(cert.validTo) > new Date()) {
      const missing = missingNames(cert, names);
      if (missing.length > 0) log.warn('the self-signed certificate does not cover every name; delete it to make a new one', { file: files.certFile, missing });
      return files;
    }
    log.warn('the self-signed certificate has expired; making a new one', { file: files.certFile, validTo: cert.validTo });
  }
  const pair = await generateSelfSigned(names);
  try {
    fs.mkdirSync(path.dirname(files.certFile), { recursive: true, mode: 0o700 });
    writeWhole(files.keyFile, pair.key, 0o600);
    writeWhole(files.certFile, pair.cert, 0o644);
  } catch (err) {
    throw new Error(`cannot write the self-signed certificate to ${path.dirname(files.certFile)}: ${(err as Error).message}`);
  }
  log.info('made a self-signed serving certificate', { file: files.certFile, dns: names.dns, ips: names.ips });
  return files;
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the self-signed certificate ${file}: ${(err as Error).message}`);
  }
}

function writeWhole(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.chmodSync(tmp, mode); // writeFileSync's mode is masked by the umask
  fs.renameSync(tmp, file);
}
