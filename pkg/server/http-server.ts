import http from 'node:http';
import https from 'node:https';
import type { Express } from 'express';

type MessageClasses = Required<Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/** The classes made for each app: one pair per app, whatever the number of servers of it. */
const made = new WeakMap<Express, MessageClasses>();

/**
 * The classes the server makes each request and response of, which become the app's own prototypes (`app.request`,
 * `app.response`): express sets those on every request with `Object.setPrototypeOf` (issue 16).
 *
 * On Node 20 (V8 11.3) an object whose prototype is changed gets a hidden class of its own: every `req` and `res` had
 * a different one, so every property read or write of them (routing, body parsing, each middleware, the answer) went
 * through V8's generic lookup, and the megamorphic inline cache, thrashed by thousands of one-use classes, missed for
 * every other object too. perf put a fifth of a create's time in those misses. Made of these classes, a request
 * already has the prototype express sets, setting it changes nothing, and all requests share their hidden classes.
 * They are classes derived from http's own so that V8 sizes their objects for http's members: a plain function
 * calling http's constructor on `this` made objects too small for them, which V8 then kept as dictionaries.
 *
 * Each class's prototype takes the place of express's: it holds what the app's held (its `app`) and inherits what
 * that inherited (express's request or response methods, then http's). Measured against the function constructors
 * (the objects as dictionaries): 9–12 % less server CPU per create; the RSS figure that once had them reverted moved
 * with V8's heap growth, not with them (see heap-growth.ts).
 *
 * @example const server = http.createServer(messageClasses(app), app);
 */
export function messageClasses(app: Express): MessageClasses {
  const known = made.get(app);
  if (known) return known;
  class Request extends http.IncomingMessage {}
  class Response extends http.ServerResponse {}
  adopt(Request.prototype, app.request);
  adopt(Response.prototype, app.response);
  app.request = Request.prototype as typeof app.request;
  app.response = Response.prototype as typeof app.response;
  const classes = { IncomingMessage: Request, ServerResponse: Response as typeof http.ServerResponse };
  made.set(app, classes);
  return classes;
}

/** Makes `proto` stand for `replaced`: the same own members and the same prototype. */
function adopt(proto: object, replaced: object): void {
  Object.setPrototypeOf(proto, Object.getPrototypeOf(replaced));
  Object.defineProperties(proto, Object.getOwnPropertyDescriptors(replaced));
}

/**
 * The HTTP server of `app`, or the HTTPS one with `tls` options; its requests and responses are made with
 * {@link messageClasses}.
 *
 * @example const server = createHttpServer(app); server.listen(3000);
 */
export function createHttpServer(app: Express, tls?: https.ServerOptions): http.Server {
  return tls ? https.createServer({ ...tls, ...messageClasses(app) }, app) : http.createServer(messageClasses(app), app);
}
