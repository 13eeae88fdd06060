import express from 'express';
import supertest from 'supertest';
import { lateRoutes } from './late-routes';

/** An app with late routes, a fallback naming who answered, and a count of setImmediate calls made on the way. */
function app() {
  const late = lateRoutes();
  const deferred: number[] = [];
  const a = express();
  a.use((_req, _res, next) => {
    const spy = jest.spyOn(global, 'setImmediate');
    next();
    deferred.push(spy.mock.calls.length);
    spy.mockRestore();
  });
  a.use(late);
  a.use((req, res) => void res.status(404).json({ from: 'fallback', path: req.path }));
  return { app: a, late, deferred };
}

describe('lateRoutes', () => {
  it('passes every request by until its routes are given, in the same turn of the event loop', async () => {
    const { app: a, late, deferred } = app();
    expect(late.stack).toEqual([]);
    const res = await supertest(a).post('/apis/x').send({});
    expect(res.body).toEqual({ from: 'fallback', path: '/apis/x' });
    expect(deferred).toEqual([0]);
  });

  it('sends requests to the routes given, and keeps their stack readable as a mounted router\'s', async () => {
    const { app: a, late } = app();
    const routes = express.Router();
    routes.get('/public/thing', (_req, res) => void res.json({ from: 'late' }));
    late.fill(routes);
    expect((await supertest(a).get('/public/thing')).body).toEqual({ from: 'late' });
    expect((await supertest(a).get('/other')).body).toEqual({ from: 'fallback', path: '/other' });
    expect(late.stack).toBe(routes.stack);
  });
});
