/**
 * legacyRouter (mount.ts) sends a request to the routes of its path's group alone: what express would have matched
 * in one router of every route still answers, in the same order.
 */
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import type { LegacyArea, LegacyRoute } from './declare';
import type { AdapterDeps } from './deps';
import { groupOf, legacyRouter } from './mount';

const route = (method: LegacyRoute['method'], path: string, answer: string | ((req: express.Request) => unknown), extra: Partial<LegacyRoute> = {}): LegacyRoute => ({
  method,
  path,
  operationId: `${method} ${path}`,
  summary: '',
  tags: [],
  responses: {},
  guard: { kind: 'public' } as LegacyRoute['guard'],
  handler: async (req, res) => {
    if (typeof answer === 'string') res.json({ answer });
    else res.json({ answer: answer(req) });
  },
  ...extra,
});

const areas: LegacyArea[] = [
  {
    name: 'first',
    routes: [
      route('get', '/api/things/special', 'special'),
      route('get', '/api/things/:id', (req) => `thing ${req.params.id}`),
      route('get', '/login', 'login form'),
      route('get', '/login/saml', 'saml'),
      route('get', '/api/enterprise-only', 'served', { servedIn: () => false }),
    ],
  },
  {
    name: 'second',
    routes: [
      // Declared in a later area, in the same group: tried after the first area's routes of the group.
      route('get', '/api/things/:id/parts', (req) => `parts of ${req.params.id}`),
      route('post', '/api/things/special', 'posted'),
      route('get', '/api/failing', 'never', { handler: async () => Promise.reject(new Error('boom')) }),
      // Not literal in its first two segments: reached for any path its pattern matches.
      route('get', '/api/:area/summary', (req) => `summary of ${req.params.area}`),
    ],
  },
];

function app() {
  const a = express();
  a.use(legacyRouter(areas, { config: {} } as unknown as AdapterDeps));
  a.use((_req, res) => res.status(404).json({ answer: 'not found' }));
  const onError: ErrorRequestHandler = (err: Error, _req, res, _next) => res.status(500).json({ answer: err.message });
  a.use(onError);
  return a;
}

describe('legacyRouter', () => {
  const a = app();
  const answer = async (method: 'get' | 'post', path: string) => {
    const res = await request(a)[method](path);
    return `${res.status} ${res.body.answer}`;
  };

  it('serves each route in declaration order within its group', async () => {
    expect(await answer('get', '/api/things/special')).toBe('200 special');
    expect(await answer('get', '/api/things/7')).toBe('200 thing 7');
    expect(await answer('get', '/api/things/7/parts')).toBe('200 parts of 7');
    expect(await answer('post', '/api/things/special')).toBe('200 posted');
  });

  it('matches as express does: any case, a trailing slash; one-segment paths and their children apart', async () => {
    expect(await answer('get', '/API/Things/Special')).toBe('200 special');
    expect(await answer('get', '/api/things/7/')).toBe('200 thing 7');
    expect(await answer('get', '/login')).toBe('200 login form');
    expect(await answer('get', '/login/')).toBe('200 login form');
    expect(await answer('get', '/login/saml')).toBe('200 saml');
  });

  it('passes on what it does not serve: an unknown group, an unknown path of a known group, a route not served', async () => {
    expect(await answer('get', '/api/unknown/x')).toBe('404 not found');
    expect(await answer('get', '/api/things/7/parts/9')).toBe('404 not found');
    expect(await answer('post', '/api/things/7')).toBe('404 not found');
    expect(await answer('get', '/api/enterprise-only')).toBe('404 not found');
  });

  it('reaches a route whose first segments are not literal from any group, after that group\'s own routes', async () => {
    expect(await answer('get', '/api/things/summary')).toBe('200 thing summary');
    expect(await answer('get', '/api/other/summary')).toBe('200 summary of other');
  });

  it('hands a handler\'s error to the error handler', async () => {
    expect(await answer('get', '/api/failing')).toBe('500 boom');
  });

  it('passes a path of no group on in the same turn when no route could match any path (no setImmediate)', async () => {
    // Without a route of a non-literal group, nothing is entered: express's router hands a request it did not match on
    // in a later turn of the event loop, which every /apis request paid for each place a legacyRouter is mounted.
    const literal = express();
    let deferred = -1;
    literal.use((_req, _res, next) => {
      const spy = jest.spyOn(global, 'setImmediate');
      next();
      deferred = spy.mock.calls.length;
      spy.mockRestore();
    });
    literal.use(legacyRouter([{ name: 'first', routes: areas[0]!.routes }], { config: {} } as unknown as AdapterDeps));
    literal.use((_req, res) => res.status(404).json({ answer: 'not found' }));
    const res = await request(literal).post('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards');
    expect(res.status).toBe(404);
    expect(deferred).toBe(0);
    // The routes it has still answer.
    expect((await request(literal).get('/api/things/3')).body).toEqual({ answer: 'thing 3' });
  });

  it('groupOf: the first two segments, lower-cased, slashes not counted', () => {
    expect(groupOf('/API/Dashboards/uid/a')).toBe('api/dashboards');
    expect(groupOf('/api/dashboards/')).toBe('api/dashboards');
    expect(groupOf('//api//dashboards')).toBe('api/dashboards');
    expect(groupOf('/login')).toBe('login');
    expect(groupOf('/')).toBe('');
  });
});
