import express from 'express';
import supertest from 'supertest';
import { readRoutes } from './read-routes';

/** An app with one GET route behind readRoutes, and a fallback that names who answered; counts path matches entered. */
function app() {
  const router = express.Router();
  const entered: string[] = [];
  router.use((req, _res, next) => {
    entered.push(req.method);
    next();
  });
  router.get('/probe', (_req, res) => void res.json({ from: 'probe' }));
  const a = express();
  a.use(readRoutes(router));
  a.use((req, res) => void res.status(404).json({ from: 'fallback', method: req.method }));
  return { app: a, entered, router };
}

describe('readRoutes', () => {
  it('lets GET and HEAD reach the router, and OPTIONS, which express answers with the methods the path allows', async () => {
    const { app: a, entered } = app();
    expect((await supertest(a).get('/probe')).body).toEqual({ from: 'probe' });
    expect((await supertest(a).head('/probe')).status).toBe(200);
    const options = await supertest(a).options('/probe');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD');
    expect(entered).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('passes any other method by without entering the router', async () => {
    const { app: a, entered } = app();
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const res = await supertest(a)[method]('/probe').send({});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ from: 'fallback', method: method.toUpperCase() });
    }
    expect(entered).toEqual([]);
  });

  it('keeps the router\'s stack readable, as express keeps a mounted router\'s', () => {
    const { router } = app();
    const handler = readRoutes(router) as express.RequestHandler & { stack?: unknown };
    expect(handler.stack).toBe(router.stack);
  });
});
