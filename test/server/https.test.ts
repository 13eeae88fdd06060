/**
 * HTTPS: the self-signed certificate made on first start and reused, clear start-up errors for a bad pair,
 * reloading the pair on SIGHUP and on file change without dropping connections, the minimum TLS version.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { ConfigError, loadConfig } from '../../pkg/config';
import { createLogger, silentLogger } from '../../pkg/log';
import { type RunningServer, startServer } from '../../pkg/server/server';
import { generateSelfSigned } from '../../pkg/server/tls-certificate';
import { openStorage } from '../../storage';
import { createTestDatabase } from '../support/backend';

const ROOT = path.resolve(__dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-https-'));
  dirs.push(d);
  return d;
}

function httpsConfig(flags: string[]) {
  return loadConfig({ argv: ['--server.protocol=https', '--server.http_addr=127.0.0.1', '--server.http_port=0', ...flags], env: {} });
}

/** The real server over HTTPS on a fresh test database; `logs` collects its log lines. */
async function startHttps(flags: string[]): Promise<{ server: RunningServer; logs: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const logs: Array<Record<string, unknown>> = [];
  const db = await createTestDatabase();
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 5 });
  const server = await startServer(httpsConfig(flags), createLogger('debug', (l) => logs.push(JSON.parse(l))), { storage });
  return {
    server,
    logs,
    async close() {
      await server.close();
      await db.drop();
    },
  };
}

/** The certificate a new TLS connection is served, trusting only `ca`. */
function servedCertificate(url: string, ca: string | Buffer | Array<string | Buffer>, opts: tls.ConnectionOptions = {}): Promise<X509Certificate> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), ca, ...opts }, () => {
      const cert = new X509Certificate(socket.getPeerX509Certificate()!.raw);
      socket.end();
      resolve(cert);
    });
    socket.on('error', reject);
  });
}

/** The server as a process (`cmd/dashboard-apiserver/main.ts`), configured by environment; its log lines parsed. */
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));

function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', path.join(ROOT, 'test', 'support', 'ts-register.js'), path.join(ROOT, 'cmd', 'dashboard-apiserver', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const logs = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return Object.assign(child, { output: () => out, logs, exited });
}

async function writePair(dir: string, names = { dns: ['localhost'], ips: ['127.0.0.1'] }) {
  const pair = await generateSelfSigned(names);
  const certFile = path.join(dir, 'tls.crt');
  const keyFile = path.join(dir, 'tls.key');
  fs.writeFileSync(keyFile, pair.key, { mode: 0o600 });
  fs.writeFileSync(certFile, pair.cert);
  return { ...pair, certFile, keyFile, fingerprint: new X509Certificate(pair.cert).fingerprint256 };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the self-signed certificate', () => {
  test('is made in <data>/tls on first start, for every local name, and reused on the next start', async () => {
    const data = tempDir();
    const flags = [`--paths.data=${data}`, '--server.root_url=https://dash.example.test:8443/'];
    const first = await startHttps(flags);
    const certFile = path.join(data, 'tls', 'server.crt');
    const keyFile = path.join(data, 'tls', 'server.key');
    let fingerprint: string;
    try {
      expect(first.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(certFile).mode & 0o777).toBe(0o644);
      expect(fs.statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);

      const cert = new X509Certificate(fs.readFileSync(certFile));
      fingerprint = cert.fingerprint256;
      expect(cert.subjectAltName!.split(', ').sort()).toEqual(
        [`DNS:${os.hostname().toLowerCase()}`, 'DNS:dash.example.test', 'DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1'].sort(),
      );
      expect(cert.checkPrivateKey(createPrivateKey(fs.readFileSync(keyFile)))).toBe(true);
      expect(new Date(cert.validTo).getTime() - Date.now()).toBeGreaterThan(360 * 24 * 3600 * 1000);

      // Its SHA-256 fingerprint is logged, and it is what a verifying client is served.
      expect(first.logs).toContainEqual(expect.objectContaining({ msg: 'made a self-signed serving certificate' }));
      expect(first.logs).toContainEqual(expect.objectContaining({ msg: 'serving certificate', selfSigned: true, fingerprint }));
      expect((await servedCertificate(first.server.url, cert.toString())).fingerprint256).toBe(fingerprint);
      const res = await fetchJson(first.server.url, cert.toString(), '/apis/folder.svc.app/v1beta1/namespaces/default/folders');
      expect(res).toMatchObject({ status: 200, body: { kind: 'FolderList' } });
    } finally {
      await first.close();
    }

    const second = await startHttps(flags);
    try {
      expect(second.logs).not.toContainEqual(expect.objectContaining({ msg: 'made a self-signed serving certificate' }));
      expect(second.logs).toContainEqual(expect.objectContaining({ msg: 'serving certificate', selfSigned: true, fingerprint: fingerprint! }));
      expect((await servedCertificate(second.server.url, fs.readFileSync(certFile))).fingerprint256).toBe(fingerprint!);
    } finally {
      await second.close();
    }
  });

  test('an expired one is replaced; one that lacks a now-configured name is kept with a warning', async () => {
    const data = tempDir();
    fs.mkdirSync(path.join(data, 'tls'));
    const old = await generateSelfSigned({ dns: ['localhost'], ips: ['127.0.0.1'] }, new Date(Date.now() - 400 * 24 * 3600 * 1000));
    fs.writeFileSync(path.join(data, 'tls', 'server.crt'), old.cert);
    fs.writeFileSync(path.join(data, 'tls', 'server.key'), old.key, { mode: 0o600 });
    const first = await startHttps([`--paths.data=${data}`]);
    await first.close();
    expect(first.logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'the self-signed certificate has expired; making a new one' }));
    const renewed = fs.readFileSync(path.join(data, 'tls', 'server.crt'), 'utf8');
    expect(renewed).not.toBe(old.cert);

    const second = await startHttps([`--paths.data=${data}`, '--server.root_url=https://new.example.test/']);
    await second.close();
    expect(fs.readFileSync(path.join(data, 'tls', 'server.crt'), 'utf8')).toBe(renewed);
    expect(second.logs).toContainEqual(expect.objectContaining({ level: 'warn', missing: ['new.example.test'] }));
  });
});

describe('a bad certificate or key stops start-up with one clear line', () => {
  // TLS is prepared before the database is opened, so these need no database.
  const start = (flags: string[]) => startServer(httpsConfig(flags), silentLogger);

  test('a missing file', async () => {
    const dir = tempDir();
    const { keyFile } = await writePair(dir);
    const missing = path.join(dir, 'nope.crt');
    await expect(start([`--server.cert_file=${missing}`, `--server.cert_key=${keyFile}`])).rejects.toThrow(
      new Error(`cannot read server.cert_file ${missing}: ENOENT: no such file or directory`),
    );
  });

  test('an unreadable file', async () => {
    if (process.getuid?.() === 0) {
      // root reads any file; a directory in the key's place is unreadable as a file for everyone.
      const dir = tempDir();
      const { certFile } = await writePair(dir);
      await expect(start([`--server.cert_file=${certFile}`, `--server.cert_key=${dir}`])).rejects.toThrow(
        new Error(`cannot read server.cert_key ${dir}: EISDIR: illegal operation on a directory`),
      );
      return;
    }
    const dir = tempDir();
    const { certFile, keyFile } = await writePair(dir);
    fs.chmodSync(keyFile, 0o000);
    await expect(start([`--server.cert_file=${certFile}`, `--server.cert_key=${keyFile}`])).rejects.toThrow(`cannot read server.cert_key ${keyFile}: EACCES`);
  });

  test('a certificate and key that do not match', async () => {
    const a = await writePair(tempDir());
    const b = await writePair(tempDir());
    await expect(start([`--server.cert_file=${a.certFile}`, `--server.cert_key=${b.keyFile}`])).rejects.toThrow(
      new Error(`server.cert_file ${a.certFile} and server.cert_key ${b.keyFile} do not match (the key is not the certificate's)`),
    );
  });

  test('files that are not PEM', async () => {
    const a = await writePair(tempDir());
    await expect(start([`--server.cert_file=${a.keyFile}`, `--server.cert_key=${a.keyFile}`])).rejects.toThrow(`server.cert_file ${a.keyFile} is not a PEM certificate`);
    await expect(start([`--server.cert_file=${a.certFile}`, `--server.cert_key=${a.certFile}`])).rejects.toThrow(`server.cert_key ${a.certFile} is not a PEM private key`);
  });

  test('only one of the two files is a configuration error', () => {
    expect(() => httpsConfig(['--server.cert_file=/etc/tls.crt'])).toThrow(ConfigError);
    expect(() => httpsConfig(['--server.cert_key=/etc/tls.key'])).toThrow(
      'missing value for server.cert_file: required with server.cert_key (set both, or neither for a self-signed certificate)',
    );
  });

  test('the process exits 1 with the message and no stack trace', async () => {
    const a = await writePair(tempDir());
    const b = await writePair(tempDir());
    const child = runMain({ SVC_SERVER_PROTOCOL: 'https', SVC_SERVER_CERT_FILE: a.certFile, SVC_SERVER_CERT_KEY: b.keyFile, SVC_SERVER_HTTP_PORT: '0', SVC_PATHS_DATA: tempDir() });
    expect(await child.exited).toBe(1);
    expect(child.output().trim().split('\n')).toHaveLength(1);
    expect(child.logs()).toEqual([expect.objectContaining({ level: 'error', msg: 'cannot start', error: expect.stringContaining('do not match') })]);
    expect(child.output()).not.toMatch(/\n\s+at /);
  });
});

describe('reloading the certificate', () => {
  test('on SIGHUP new connections get the new certificate, an open keep-alive connection stays up, the minimum TLS version stays', async () => {
    // A real process: jest gives tests a stand-in `process` that real signals never reach.
    const dir = tempDir();
    const first = await writePair(dir);
    const db = await createTestDatabase();
    const child = runMain({
      SVC_SERVER_PROTOCOL: 'https',
      SVC_SERVER_CERT_FILE: first.certFile,
      SVC_SERVER_CERT_KEY: first.keyFile,
      SVC_SERVER_MIN_TLS_VERSION: 'TLS1.3',
      SVC_SERVER_HTTP_ADDR: '127.0.0.1',
      SVC_SERVER_HTTP_PORT: '0',
      SVC_PATHS_DATA: tempDir(),
      ...(db.url ? { SVC_DATABASE_URL: db.url } : {}),
    });
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: [first.cert] });
    try {
      await until('the server has started', async () => child.logs().some((l) => l.msg === 'server started'), 60000);
      const url = child.logs().find((l) => l.msg === 'server started')!.url as string;
      const before = await get(url, agent, '/livez');
      expect(before.status).toBe(200);
      expect(before.reused).toBe(false);
      expect(before.peerFingerprint).toBe(first.fingerprint);

      const second = await writePair(dir);
      child.kill('SIGHUP');
      await until('a new connection is served the second certificate', async () => (await servedCertificate(url, [first.cert, second.cert])).fingerprint256 === second.fingerprint);
      // Log lines are written in batches (every 50 ms): the line may follow the new certificate by a moment.
      await until('the reload is logged', async () => child.logs().some((l) => l.msg === 'reloaded the serving certificate'));
      expect(child.logs()).toContainEqual(expect.objectContaining({ msg: 'reloaded the serving certificate', reason: 'SIGHUP', fingerprint: second.fingerprint, previous: first.fingerprint }));

      // The connection opened before the reload still answers, on the same socket, with the first certificate.
      const after = await get(url, agent, '/livez');
      expect(after.status).toBe(200);
      expect(after.reused).toBe(true);
      expect(after.socket).toBe(before.socket);
      expect(after.peerFingerprint).toBe(first.fingerprint);

      await expect(servedCertificate(url, second.cert, { maxVersion: 'TLSv1.2' })).rejects.toThrow(/protocol version/);
      child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
    } finally {
      agent.destroy();
      if (child.exitCode === null) child.kill('SIGKILL');
      await child.exited;
      await db.drop();
    }
  }, 120000);

  test('when the files change, without a signal; a broken pair is not loaded and the current one stays', async () => {
    const dir = tempDir();
    const first = await writePair(dir);
    const h = await startHttps([`--server.cert_file=${first.certFile}`, `--server.cert_key=${first.keyFile}`]);
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: [first.cert] });
    try {
      const before = await get(h.server.url, agent, '/livez');

      // A writer that got it wrong: a key that is not the certificate's.
      const stray = await generateSelfSigned({ dns: ['localhost'], ips: ['127.0.0.1'] });
      fs.writeFileSync(first.keyFile, stray.key);
      await until('the broken pair is noticed', async () => h.logs.some((l) => l.msg === 'cannot reload the serving certificate; keeping the current one'));
      expect((await servedCertificate(h.server.url, first.cert)).fingerprint256).toBe(first.fingerprint);

      const second = await writePair(dir);
      await until('a new connection is served the second certificate', async () => (await servedCertificate(h.server.url, [first.cert, second.cert])).fingerprint256 === second.fingerprint);
      expect(h.logs).toContainEqual(expect.objectContaining({ msg: 'reloaded the serving certificate', reason: 'files changed', fingerprint: second.fingerprint }));

      const after = await get(h.server.url, agent, '/livez');
      expect(after).toMatchObject({ status: 200, reused: true, peerFingerprint: first.fingerprint });
      expect(after.socket).toBe(before.socket);
    } finally {
      agent.destroy();
      await h.close();
    }
  });
});

describe('the minimum TLS version', () => {
  test('TLS1.3 refuses a TLS 1.2 client and serves a TLS 1.3 one', async () => {
    const data = tempDir();
    const h = await startHttps([`--paths.data=${data}`, '--server.min_tls_version=TLS1.3']);
    try {
      const ca = fs.readFileSync(path.join(data, 'tls', 'server.crt'));
      await expect(servedCertificate(h.server.url, ca, { maxVersion: 'TLSv1.2' })).rejects.toThrow(/protocol version/);
      await expect(servedCertificate(h.server.url, ca, { minVersion: 'TLSv1.3' })).resolves.toBeInstanceOf(X509Certificate);
    } finally {
      await h.close();
    }
  });

  test('the default, TLS1.2, serves a TLS 1.2 client', async () => {
    const data = tempDir();
    const h = await startHttps([`--paths.data=${data}`]);
    try {
      const ca = fs.readFileSync(path.join(data, 'tls', 'server.crt'));
      await expect(servedCertificate(h.server.url, ca, { maxVersion: 'TLSv1.2' })).resolves.toBeInstanceOf(X509Certificate);
    } finally {
      await h.close();
    }
  });
});

/** The certificate each client socket was served at its handshake (a reused socket no longer reports it). */
const handshakeFingerprints = new WeakMap<object, string>();

/** A GET through `agent`, saying whether it reused a connection and which certificate that connection got. */
function get(url: string, agent: https.Agent, p: string): Promise<{ status: number; reused: boolean; socket: tls.TLSSocket; peerFingerprint: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = https.get(new URL(p, url), { agent }, (res) => {
      const socket = res.socket as tls.TLSSocket;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, socket, peerFingerprint: handshakeFingerprints.get(socket) }));
    });
    req.on('socket', (socket) => {
      if (!handshakeFingerprints.has(socket)) socket.once('secureConnect', () => handshakeFingerprints.set(socket, (socket as tls.TLSSocket).getPeerX509Certificate()!.fingerprint256));
    });
    req.on('error', reject);
  });
}

function fetchJson(url: string, ca: string, p: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.get(new URL(p, url), { ca, auth: 'admin:admin' }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
}
