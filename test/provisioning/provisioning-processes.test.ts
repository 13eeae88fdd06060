/**
 * Provisioning in real processes: a bad file at start exits with code 2 and names the file and the field (both
 * backends); three replicas started together on one PostgreSQL database with the same provisioning folder create
 * each object once (the provisioning lock: one applies, the others find it applied).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { safeUidFromName } from '../../pkg/provisioning';
import { ADMIN } from '../support/app';
import { createTestDatabase, type TestDatabase, testBackend } from '../support/backend';
import { exited, runMain, type ServerProcess, startedUrl, stopMain } from '../support/server-process';

const backend = testBackend();
const describeOnPostgres = backend === 'postgres' ? describe : describe.skip;

let dir: string;
let db: TestDatabase;
const children: ServerProcess[] = [];

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

/** The server's arguments and environment on this backend (a data folder of its own for the embedded one). */
function serverArgs(): { args: string[]; env: Record<string, string> } {
  const args = ['--server.http_port=0', '--server.http_addr=127.0.0.1', `--paths.provisioning=${path.join(dir, 'provisioning')}`, `--paths.data=${path.join(dir, 'data')}`];
  return { args, env: { ...(db.url ? { SVC_DATABASE_URL: db.url } : {}), PROM_URL: 'http://prom:9090' } };
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-provisioning-proc-'));
  db = await createTestDatabase(backend);
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => stopMain(c)));
  await db.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a bad file at start: exit code 2, a message naming the file and the field', async () => {
  const file = path.join(dir, 'provisioning', 'datasources', 'bad.yaml');
  write(file, 'apiVersion: 1\ndatasources:\n  - name: Fine\n    type: prometheus\n    url: $PROM_URL\n  - name: No type\n');
  const { args, env } = serverArgs();
  const child = runMain(args, env);
  children.push(child);
  expect(await exited(child)).toBe(2);
  expect(child.output()).toContain(`dashboard-apiserver: provisioning: ${file}: datasources[1].type: required`);
  expect(child.output()).not.toContain('server started');
}, 240_000);

describeOnPostgres('three replicas on one database, one provisioning folder (PostgreSQL only: the embedded database is one process\'s)', () => {
  test('each object is created once, and every replica serves it', async () => {
    const p = path.join(dir, 'provisioning');
    const boards = path.join(dir, 'boards');
    write(path.join(p, 'datasources', 'ds.yaml'), 'apiVersion: 1\ndatasources:\n  - {name: Prom, type: prometheus, url: $PROM_URL, isDefault: true, secureJsonData: {basicAuthPassword: pw}}\n  - {name: Logs, uid: logs, type: loki, url: "http://loki:3100"}\n');
    write(path.join(p, 'dashboards', 'd.yaml'), `apiVersion: 1\nproviders:\n  - name: main\n    folder: Shared\n    updateIntervalSeconds: 1\n    options:\n      path: ${boards}\n`);
    write(path.join(boards, 'a.json'), JSON.stringify({ uid: 'rep-a', title: 'A' }));
    write(path.join(boards, 'b.json'), JSON.stringify({ title: 'B without uid' }));
    write(path.join(boards, 'sub', 'c.json'), JSON.stringify({ uid: 'rep-c', title: 'C' }));
    const { args, env } = serverArgs();
    const started = Array.from({ length: 3 }, () => runMain(args, env));
    children.push(...started);
    const urls = await Promise.all(started.map((c) => startedUrl(c, 240_000)));
    const get = (url: string, route: string) => supertest(url).get(route).auth(ADMIN.user, ADMIN.password);
    for (const url of urls) {
      const ds = (await get(url, '/apis/datasource.svc.app/v1beta1/namespaces/default/datasources')).body.items;
      expect(ds.map((d: { metadata: { name: string } }) => d.metadata.name).sort()).toEqual(['logs', safeUidFromName('Prom')].sort());
      const dashboards = (await get(url, '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards')).body.items;
      expect(dashboards).toHaveLength(3);
      const folders = (await get(url, '/apis/folder.svc.app/v1beta1/namespaces/default/folders')).body.items;
      expect(folders.map((f: { spec: { title: string } }) => f.spec.title)).toEqual(['Shared']);
      // Created once, never written again: the first generation, and one version in the history.
      for (const o of [...ds, ...dashboards, ...folders]) expect(o.metadata.generation).toBe(1);
    }
    expect((await get(urls[0]!, '/api/dashboards/uid/rep-a/versions')).body.versions).toHaveLength(1);
    // A reload on one replica; the others serve what it stored.
    write(path.join(boards, 'a.json'), JSON.stringify({ uid: 'rep-a', title: 'A, changed' }));
    expect((await supertest(urls[1]!).post('/api/admin/provisioning/dashboards/reload').auth(ADMIN.user, ADMIN.password)).status).toBe(200);
    for (const url of urls) expect((await get(url, '/api/dashboards/uid/rep-a')).body.dashboard.title).toBe('A, changed');
    // Every replica polls; the change was still written once.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await get(urls[2]!, '/api/dashboards/uid/rep-a')).body.dashboard.version).toBe(2);
  }, 600_000);
});
