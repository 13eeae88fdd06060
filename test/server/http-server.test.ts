/**
 * The server's requests and responses are made with express's prototypes (pkg/server/http-server.ts): express then
 * has no prototype to change, and every request shares its hidden classes with the others (issue 16).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import express, { type Request, type Response } from 'express';
import { createHttpServer } from '../../pkg/server/http-server';
import { generateSelfSigned } from '../../pkg/server/tls-certificate';

// V8's own test of hidden classes, compiled after the flag that allows it.
v8.setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const fastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

/** How many hidden classes the objects have among them. */
function classesOf(objects: readonly object[]): number {
  const classes: object[] = [];
  for (const o of objects) if (!classes.some((c) => haveSameMap(c, o))) classes.push(o);
  return classes.length;
}

/**
 * Requests and responses share their hidden classes (at most two: one made while V8 still settles a member's type may
 * keep the first), where each had one of its own before (8 requests, 8 classes).
 */
const FEW = 2;
const REQUESTS = 8;

/** An app that keeps each request and response it answers, and the prototype each request had when it arrived. */
function keepingApp() {
  const app = express();
  const seen: { req: Request; res: Response; arrivedWith: unknown }[] = [];
  const arrived = new Map<object, unknown>();
  app.use(express.json());
  app.post('/x', (req, res) => {
    seen.push({ req, res, arrivedWith: arrived.get(req) });
    res.json({ got: req.body });
  });
  return { app, seen, onRequest: (req: object) => arrived.set(req, Object.getPrototypeOf(req)) };
}

async function listen(server: ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

test('over http, requests arrive with the prototypes express gives them and share their hidden classes', async () => {
  const { app, seen, onRequest } = keepingApp();
  const server = createHttpServer(app);
  server.prependListener('request', onRequest);
  const port = await listen(server);
  try {
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) });
      expect(await res.json()).toEqual({ got: { i } });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(seen).toHaveLength(REQUESTS);
  for (const { res, arrivedWith } of seen) {
    expect(arrivedWith).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
  }
  // Without the classes, express's Object.setPrototypeOf gives every request and response a hidden class of its own.
  expect(classesOf(seen.map((s) => s.req))).toBeLessThanOrEqual(FEW);
  expect(classesOf(seen.map((s) => s.res))).toBeLessThanOrEqual(FEW);
  // Objects V8 keeps as dictionaries share a class too, and are slow all the same: sized for http's members, they are not.
  expect(seen.every((s) => fastProperties(s.req) && fastProperties(s.res))).toBe(true);
  // express's own members still reach them.
  expect(seen[0]!.req.app).toBe(app);
  expect(seen[0]!.req.get('content-type')).toBe('application/json');
});

test('over https the same', async () => {
  const { app, seen, onRequest } = keepingApp();
  const pair = await generateSelfSigned({ dns: ['localhost'], ips: ['127.0.0.1'] });
  const server = createHttpServer(app, { cert: pair.cert, key: pair.key });
  expect(server).toBeInstanceOf(https.Server);
  server.prependListener('request', onRequest);
  const port = await listen(server);
  const post = (i: number) =>
    new Promise<unknown>((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port, path: '/x', method: 'POST', ca: pair.cert, servername: 'localhost', headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ i }));
    });
  try {
    for (let i = 0; i < REQUESTS; i++) expect(await post(i)).toEqual({ got: { i } });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(seen.map((s) => s.arrivedWith)).toEqual(Array(REQUESTS).fill(app.request));
  expect(classesOf(seen.map((s) => s.req))).toBeLessThanOrEqual(FEW);
  expect(classesOf(seen.map((s) => s.res))).toBeLessThanOrEqual(FEW);
  expect(seen.every((s) => fastProperties(s.req) && fastProperties(s.res))).toBe(true);
});

test('the classes are made once per app: a second server of it keeps the first one\'s requests as they are', () => {
  const { app } = keepingApp();
  const first = createHttpServer(app);
  const request = app.request;
  const second = createHttpServer(app);
  expect(app.request).toBe(request);
  first.close();
  second.close();
});
