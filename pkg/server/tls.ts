import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import type https from 'node:https';
import type { SecureVersion } from 'node:tls';
import type { Config } from '../config';
import type { Logger } from '../log';
import { ensureSelfSigned, servingNames } from './tls-certificate';

/*
 * HTTPS serving, as kube-apiserver does it: the configured pair, else a self-signed one in the data folder;
 * a minimum TLS version; the pair reloaded on SIGHUP or when its files change, for new connections only.
 */

/** A certificate and key that belong together, read from their files. */
export interface KeyPair {
  cert: Buffer;
  key: Buffer;
  /** SHA-256 of the certificate, as `AA:BB:...`: what `openssl x509 -fingerprint -sha256` prints. */
  fingerprint: string;
  validTo: string;
}

/** Where the pair comes from, with the names error messages use for the files. */
export interface KeyPairFiles {
  certFile: string;
  keyFile: string;
  certLabel: string;
  keyLabel: string;
}

/**
 * Reads and checks a pair: each file readable, a PEM certificate and a private key, and the key the
 * certificate's. Errors are one line naming the setting and file, fit for `cannot start`.
 *
 * @example
 *   loadKeyPair({ certFile: '/x', keyFile: '/y', certLabel: 'server.cert_file', keyLabel: 'server.cert_key' });
 *   // throws: cannot read server.cert_file /x: ENOENT: no such file or directory
 */
export function loadKeyPair(files: KeyPairFiles): KeyPair {
  const cert = readFile(files.certLabel, files.certFile);
  const key = readFile(files.keyLabel, files.keyFile);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new Error(`${files.certLabel} ${files.certFile} is not a PEM certificate: ${(err as Error).message}`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new Error(`${files.keyLabel} ${files.keyFile} is not a PEM private key: ${(err as Error).message}`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new Error(`${files.certLabel} ${files.certFile} and ${files.keyLabel} ${files.keyFile} do not match (the key is not the certificate's)`);
  }
  return { cert, key, fingerprint: x509.fingerprint256, validTo: x509.validTo };
}

function readFile(label: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    // fs messages end in the system call, e.g. ", open '<file>'": the file is named already.
    throw new Error(`cannot read ${label} ${file}: ${(err as Error).message.replace(/, \w+( '.*')?$/, '')}`);
  }
}

/** The TLS side of the server: options for `https.createServer`, and reloading once it listens. */
export interface TlsServing {
  options: https.ServerOptions;
  /** Reloads on SIGHUP and on file changes until the returned function is called. */
  watch(server: https.Server): () => void;
}

/** How often the certificate files are checked for changes (stat polling: it follows renames and symlink swaps). */
const WATCH_INTERVAL_MS = 1000;

/**
 * Resolves the serving pair (`server.cert_file` + `server.cert_key`, or the self-signed pair made or reused in
 * `<paths.data>/tls`), checks it, and logs its fingerprint.
 *
 * @throws Error with a one-line message when the pair cannot be read, parsed, matched or made.
 * @example
 *   const tls = await prepareTls(config, log);
 *   const server = https.createServer(tls.options, app);
 *   const stop = tls.watch(server);
 */
export async function prepareTls(config: Config, log: Logger): Promise<TlsServing> {
  const { cert_file, cert_key } = config.server;
  const selfSigned = cert_file === '' && cert_key === '';
  const files: KeyPairFiles = selfSigned
    ? { ...(await ensureSelfSigned(config.paths.data, servingNames(config), log)), certLabel: 'self-signed certificate', keyLabel: 'self-signed key' }
    : { certFile: cert_file, keyFile: cert_key, certLabel: 'server.cert_file', keyLabel: 'server.cert_key' };
  const minVersion: SecureVersion = config.server.min_tls_version === 'TLS1.3' ? 'TLSv1.3' : 'TLSv1.2';
  const contextOptions = (pair: KeyPair) => ({ cert: pair.cert, key: pair.key, minVersion });

  let current = loadKeyPair(files);
  log.info('serving certificate', { file: files.certFile, selfSigned, fingerprint: current.fingerprint, validTo: current.validTo, minTlsVersion: minVersion });

  return {
    options: contextOptions(current),
    watch(server) {
      const reload = (reason: string) => {
        let next: KeyPair;
        try {
          next = loadKeyPair(files);
        } catch (err) {
          log.error('cannot reload the serving certificate; keeping the current one', { reason, error: (err as Error).message });
          return;
        }
        if (next.fingerprint === current.fingerprint && next.key.equals(current.key)) return;
        // Only new handshakes see the new context: open connections keep theirs and are not dropped.
        server.setSecureContext(contextOptions(next));
        log.info('reloaded the serving certificate', { reason, file: files.certFile, fingerprint: next.fingerprint, previous: current.fingerprint, validTo: next.validTo });
        current = next;
      };
      // A writer replaces the certificate and the key one after the other: wait for both before loading.
      let timer: NodeJS.Timeout | undefined;
      const changed = () => {
        clearTimeout(timer);
        timer = setTimeout(() => reload('files changed'), 250);
      };
      const onHangup = () => reload('SIGHUP');
      process.on('SIGHUP', onHangup);
      for (const file of [files.certFile, files.keyFile]) fs.watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, changed);
      return () => {
        process.off('SIGHUP', onHangup);
        for (const file of [files.certFile, files.keyFile]) fs.unwatchFile(file, changed);
        clearTimeout(timer);
      };
    },
  };
}
