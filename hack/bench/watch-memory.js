#!/usr/bin/env node
/**
 * What idle watches cost: opens N watches on the dashboards collection of a server built from dist/ (in a child
 * process, so that its memory is its own) and prints the server's RSS and heap per watch, the database queries per
 * second while they idle, and how long one write takes to reach all of them. It prints figures and asserts nothing.
 *
 *   npm run build && node hack/bench/watch-memory.js                 # N = 1,000 then 5,000
 *   node hack/bench/watch-memory.js --watches=200,2000 --idle=20 --embedded
 *
 * Flags: --watches=<n,...> (default 1000,5000) --idle=<seconds> (default 10) --embedded (in-memory PGlite)
 *        --assembled (serve watch from an app assembled here even if the server serves it itself)
 * Environment: SVC_BENCH_DATABASE_URL, as for hack/bench/run.js.
 *
 * The server is `startServer` from dist/ with a Storage wrapper that counts calls. If that server does not serve
 * watch yet (405: the /apis router is not wired to the WatchHub), the child assembles the same stack itself:
 * createApp behind a route that hands `?watch=true` to serveWatch on a WatchHub, as the router will.
 */
'use strict';
const { fork } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');
const { Client } = require('pg');
const dist = require('./dist');
const { adminUrl } = require('./database');

const LIST = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
const USAGE = 'usage: node hack/bench/watch-memory.js [--watches=1000,5000] [--idle=10] [--embedded] [--assembled]';

function parseArgs(argv) {
  const opts = { watches: [1000, 5000], idle: 10, embedded: false, assembled: false, child: false };
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=', 2);
    if (name === 'help' || name === 'h') {
      console.log(USAGE);
      process.exit(0);
    } else if (name === 'watches') opts.watches = value.split(',').map(Number);
    else if (name === 'idle') opts.idle = Number(value);
    else if (['embedded', 'assembled', 'child'].includes(name)) opts[name] = true;
    else if (name === 'database-url') opts.url = value;
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  if (opts.watches.some((n) => !Number.isInteger(n) || n < 1) || !(opts.idle > 0)) throw new Error(USAGE);
  return opts;
}

// ---------------------------------------------------------------- the server (child process)

async function child(opts) {
  const { loadConfig } = dist('pkg/config');
  const { createLogger } = dist('pkg/log');
  const { openStorage } = dist('storage');
  const counts = new Map();
  const raw = await openStorage({ url: opts.url, dataDir: '', inMemory: true, maxConnections: 10 });
  const storage = new Proxy(raw, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args) => {
        counts.set(String(prop), (counts.get(String(prop)) ?? 0) + 1);
        return v.apply(target, args);
      };
    },
  });
  const argv = ['--server.http_port=0', '--registry.compaction_interval_seconds=86400', ...(opts.url ? [`--database.url=${opts.url}`] : [])];
  const config = loadConfig({ argv, env: {}, cwd: path.resolve(__dirname, '..', '..') });
  const log = createLogger('warn');
  let server = await dist('pkg/server/server').startServer(config, log, { storage });
  let mode = 'the server as built';
  let hub;
  const probe = await fetch(`${server.url}${LIST}?watch=true&timeoutSeconds=1`, { headers: { authorization: basic() } });
  await probe.body?.cancel();
  if (opts.assembled || probe.status === 405) {
    // Not wired yet (or asked for): the same stack, with the watch route in front of createApp's.
    await closeHttpOnly(server);
    ({ server, hub } = await assembled(config, storage, log));
    mode = 'assembled here (createApp behind a serveWatch route)';
  }
  const mem = () => {
    global.gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
  };
  process.on('message', (msg) => {
    if (msg.cmd === 'stats') process.send({ id: msg.id, mem: mem(), counts: Object.fromEntries(counts), watches: hub?.stats() });
    if (msg.cmd === 'stop') server.close().finally(() => process.exit(0));
  });
  process.send({ ready: true, url: server.url, mode, backend: raw.backend, pollIntervalMs: config.registry.watch_poll_interval_ms });
}

/** Closes the HTTP side of a started server but keeps its storage (the assembled stack reuses it). */
async function closeHttpOnly(server) {
  const storage = server.storage;
  const close = storage.close;
  storage.close = async () => undefined;
  await server.close();
  storage.close = close;
}

async function assembled(config, storage, log) {
  const express = require('express');
  const { allKinds } = dist('apis');
  const { Registry } = dist('pkg/registry');
  const { WatchHub } = dist('pkg/registry/watch');
  const { createApp } = dist('pkg/server/app');
  const { basicAuth } = dist('pkg/auth/basic-auth');
  const { mainOrgOnly, resolveNamespace } = dist('pkg/server/namespaces');
  const { errorHandler } = dist('pkg/server/render-error');
  const { isWatchRequest, serveWatch } = dist('pkg/server/watch-stream');
  const registry = new Registry(storage, allKinds, { nestedFolders: config.feature_toggles.nestedFolders });
  await registry.init();
  const hub = new WatchHub(storage, { pollIntervalMs: config.registry.watch_poll_interval_ms, log });
  const app = express();
  app.use('/apis', basicAuth({ user: config.security.admin_user, password: config.security.admin_password }));
  app.get('/apis/:group/:version/namespaces/:namespace/:resource', async (req, res, next) => {
    const { group, version, namespace, resource } = req.params;
    const kind = registry.find(group, version, resource);
    if (!kind || !isWatchRequest(req)) return next();
    await resolveNamespace(namespace, mainOrgOnly);
    await serveWatch(req, res, { hub, registry, kind, ctx: { requester: { identity: req.user.identity }, namespace, fieldManager: 'bench' }, log });
  });
  app.use(createApp({ config, storage, registry, log, build: { version: 'bench', commit: 'bench' } }).app);
  app.use(errorHandler(log));
  const httpServer = http.createServer(app);
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${httpServer.address().port}`;
  return {
    hub,
    server: {
      url,
      async close() {
        hub.stop();
        httpServer.closeAllConnections();
        await new Promise((resolve) => httpServer.close(resolve));
        await storage.close();
      },
    },
  };
}

// ---------------------------------------------------------------- the client (this process)

function basic() {
  return `Basic ${Buffer.from('admin:admin').toString('base64')}`;
}

/** One watch: its socket, and how many events it has received. */
function openWatch(url, query) {
  return new Promise((resolve, reject) => {
    const w = { events: 0, req: undefined };
    w.req = http.get(`${url}${LIST}?${query}`, { headers: { authorization: basic() }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        for (const ch of chunk) if (ch === '\n') w.events++;
      });
      res.on('error', () => undefined);
      resolve(w);
    });
    w.req.on('error', reject);
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.child) return child(opts);

  let dbName;
  let url;
  if (!opts.embedded) {
    dbName = `svc_bench_watch_${process.pid}`;
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl());
    u.pathname = `/${dbName}`;
    url = u.toString();
  }
  const server = fork(__filename, ['--child', ...(url ? [`--database-url=${url}`] : []), ...(opts.assembled ? ['--assembled'] : [])], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = new Map();
  let nextId = 0;
  const ready = new Promise((resolve, reject) => {
    server.on('message', (m) => (m.ready ? resolve(m) : replies.get(m.id)?.(m)));
    server.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const stats = () =>
    new Promise((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      server.send({ cmd: 'stats', id });
    });
  const pg = url ? new Client({ connectionString: url }) : undefined;
  // Statements the database ran (each of the server's reads is one transaction), as the database counts them.
  const xacts = async () => (pg ? Number((await pg.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n) : NaN);

  try {
    const info = await ready;
    await pg?.connect();
    console.log(`watch-memory: server ${info.url} (${info.mode}), ${info.backend === 'postgres' ? `PostgreSQL database ${dbName}` : 'embedded PGlite'}, poll ${info.pollIntervalMs} ms; node ${process.version}`);
    const post = (name) =>
      fetch(`${info.url}${LIST}`, {
        method: 'POST',
        headers: { authorization: basic(), 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name }, spec: { title: name, panels: [] } }),
      }).then((r) => r.json());
    for (let i = 0; i < 20; i++) await post(`seed-${i}`);
    const rows = [];
    for (const n of opts.watches) {
      const before = await stats();
      const list = await (await fetch(`${info.url}${LIST}?limit=1`, { headers: { authorization: basic() } })).json();
      // As an informer does after its list: watch from the list's version, with bookmarks.
      const query = `watch=true&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`;
      const t0 = Date.now();
      const watches = [];
      for (let i = 0; i < n; i += 100) {
        watches.push(...(await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => openWatch(info.url, query)))));
      }
      const openSeconds = (Date.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 2000));
      const open = await stats();
      const x0 = await xacts();
      await new Promise((r) => setTimeout(r, opts.idle * 1000));
      const idle = await stats();
      await new Promise((r) => setTimeout(r, 1100)); // pg_stat_database is flushed about every second
      const x1 = await xacts();
      const t1 = Date.now();
      await post(`fanout-${n}`);
      while (watches.some((w) => w.events < 1)) await new Promise((r) => setImmediate(r));
      const fanoutMs = Date.now() - t1;
      for (const w of watches) w.req.destroy();
      const calls = (s) => Object.values(s.counts).reduce((a, b) => a + b, 0);
      const idleCalls = calls(idle) - calls(open);
      rows.push({
        n,
        openSeconds,
        rssPerWatch: (open.mem.rss - before.mem.rss) / n,
        heapPerWatch: (open.mem.heapUsed - before.mem.heapUsed) / n,
        rss: open.mem.rss,
        heap: open.mem.heapUsed,
        storagePerSecond: idleCalls / opts.idle,
        byMethod: Object.fromEntries(Object.keys(idle.counts).map((k) => [k, idle.counts[k] - (open.counts[k] ?? 0)]).filter(([, v]) => v)),
        dbPerSecond: (x1 - x0) / (opts.idle + 1.1),
        fanoutMs,
        hub: open.watches,
      });
      // Let the server notice the closed sockets before the next size.
      await new Promise((r) => setTimeout(r, 1500));
    }
    const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
    const mb = (b) => `${(b / 1048576).toFixed(0)} MiB`;
    console.log(`\n${'watches'.padStart(8)} ${'open (s)'.padStart(9)} ${'RSS/watch'.padStart(10)} ${'heap/watch'.padStart(11)} ${'RSS'.padStart(8)} ${'heap'.padStart(8)} ${'storage calls/s idle'.padStart(21)} ${'db xacts/s idle'.padStart(16)} ${'1 write → all (ms)'.padStart(19)}`);
    for (const r of rows) {
      console.log(
        `${String(r.n).padStart(8)} ${r.openSeconds.toFixed(1).padStart(9)} ${kb(r.rssPerWatch).padStart(10)} ${kb(r.heapPerWatch).padStart(11)} ${mb(r.rss).padStart(8)} ${mb(r.heap).padStart(8)} ${r.storagePerSecond.toFixed(1).padStart(21)} ${(Number.isNaN(r.dbPerSecond) ? 'n/a' : r.dbPerSecond.toFixed(1)).padStart(16)} ${String(r.fanoutMs).padStart(19)}`,
      );
    }
    for (const r of rows) console.log(`  N=${r.n}: idle storage calls by method ${JSON.stringify(r.byMethod)}${r.hub ? `; hub ${JSON.stringify(r.hub)}` : ''}`);
    console.log('\nRSS and heap are the server process after a GC, minus its figures before the watches opened. db xacts/s counts');
    console.log('every transaction on the database (pg_stat_database), including the one this script reads the counter with.');
  } finally {
    server.send?.({ cmd: 'stop' });
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r()));
    await pg?.end().catch(() => undefined);
    if (dbName) {
      const admin = new Client({ connectionString: adminUrl() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
