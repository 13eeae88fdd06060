import http from 'node:http';
import https from 'node:https';
import type { Express } from 'express';

type MessageClasses = Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

/**
 * The classes the server makes each request and response of: their prototypes are the app's own (`app.request`,
 * `app.response`), which express would otherwise set on every request with `Object.setPrototypeOf` (issue 16).
 *
 * On Node 20 (V8 11.3) an object whose prototype is changed gets a hidden class of its own: every `req` and `res` had
 * a different one, so every property read or write of them (routing, body parsing, each middleware, the answer) went
 * through V8's generic lookup, and the megamorphic inline cache, thrashed by thousands of one-use classes, missed for
 * every other object too. perf put a fifth of a create's time in those misses. Made of these classes, a request
 * already has the prototype express sets, setting it changes nothing, and requests share their hidden classes.
 *
 * V8 keeps these objects as dictionaries (it sizes them for the members of this constructor's body: none). Classes
 * derived from http's are sized for http's members and cost a create a further 12 % less CPU (measured, cad3a9f).
 * They were reverted when ratios.js read the server's RSS at 100,000 dashboards at 243–287 MiB with them, past issue
 * 16's 250, against 202–207 without; a later run without them read 267: that figure varies too much from run to run
 * to tell the two apart. Find what moves it before landing them again.
 *
 * @example const server = http.createServer(messageClasses(app), app);
 */
export function messageClasses(app: Express): MessageClasses {
  // Function constructors (not classes): http's own are, and they are called on the new object as express's are.
  function Request(this: http.IncomingMessage, socket: ConstructorParameters<typeof http.IncomingMessage>[0]) {
    http.IncomingMessage.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  Response.prototype = app.response;
  return { IncomingMessage: Request as unknown as typeof http.IncomingMessage, ServerResponse: Response as unknown as typeof http.ServerResponse };
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
