/**
 * The server's requests and responses are made with express's prototypes (pkg/server/http-server.ts): express then
 * has no prototype to change on them (issue 16).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { createHttpServer } from '../../pkg/server/http-server';
import { generateSelfSigned } from '../../pkg/server/tls-certificate';

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

/** What every request and response must be: made with the app's prototypes, express's members reaching them. */
function expectMadeWithExpressPrototypes(app: express.Express, seen: ReturnType<typeof keepingApp>['seen']) {
  expect(seen).toHaveLength(REQUESTS);
  // Without the classes a request arrives as http's IncomingMessage, and express changes its prototype.
  expect(seen.map((s) => s.arrivedWith)).toEqual(Array(REQUESTS).fill(app.request));
  expect(seen.every((s) => Object.getPrototypeOf(s.res) === app.response)).toBe(true);
  expect(seen[0]!.req.app).toBe(app);
  expect(seen[0]!.req.get('content-type')).toBe('application/json');
}

test('over http, requests arrive with the prototypes express gives them', async () => {
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
  expectMadeWithExpressPrototypes(app, seen);
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
  expectMadeWithExpressPrototypes(app, seen);
});
