import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import { downstreamResponseHeaders } from './proxy-headers';
import type { ProxyTarget } from './proxy-target';

/** The anchor's body for an upstream 401 (anchor-breadth §2.4), answered 400 so the caller's own session is not taken for expired. */
export const AUTHENTICATION_FAILED = 'Authentication to data source failed';

export interface ForwardOptions {
  target: ProxyTarget;
  method: string;
  headers: OutgoingHttpHeaders;
  /** Until the upstream's answer starts (504), then the longest silence while it streams (the answer is cut). */
  timeoutMs: number;
  /** Until the connection is made (502). */
  connectTimeoutMs: number;
  /** `jsonData.tlsSkipVerify`: an https upstream's certificate is not checked. */
  tlsSkipVerify: boolean;
}

/**
 * Sends the caller's request to the upstream and its answer back, both bodies streamed (nothing is buffered: a
 * large upload or download passes through in chunks). Upstream 401 → 400 {@link AUTHENTICATION_FAILED};
 * unreachable → 502, no answer in time → 504, both with an empty body (the upstream's error text, which may name
 * internal hosts, stays in the server). The caller going away aborts the upstream request. Resolves when the
 * exchange is over, whichever way.
 */
export function forward(req: IncomingMessage, res: ServerResponse, opts: ForwardOptions): Promise<void> {
  return new Promise<void>((resolve) => {
    const { target } = opts;
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(answerTimer);
      clearTimeout(connectTimer);
      resolve();
    };
    /** No answer from the upstream: the status alone, unless the answer had already begun (then it is cut). */
    const fail = (status: 502 | 504) => {
      if (settled) return;
      upstream.destroy();
      if (!res.headersSent) res.writeHead(status, { 'content-length': '0' }).end();
      else res.destroy();
      done();
    };
    const upstream = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: opts.method,
      path: target.path,
      headers: { ...opts.headers, host: target.host },
      // The data source's origin, never a proxy of the environment; connections are not shared between callers' requests.
      agent: false,
      ...(target.protocol === 'https:' ? { rejectUnauthorized: !opts.tlsSkipVerify, servername: isIp(target.hostname) ? undefined : target.hostname } : {}),
    });
    const answerTimer = setTimeout(() => fail(504), opts.timeoutMs);
    let connectTimer: NodeJS.Timeout | undefined;
    upstream.on('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => fail(502), opts.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    upstream.on('error', () => fail(502));
    upstream.on('response', (answer) => {
      clearTimeout(answerTimer);
      if (answer.statusCode === 401) {
        answer.resume();
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'content-security-policy': 'sandbox' }).end(AUTHENTICATION_FAILED);
        return done();
      }
      res.writeHead(answer.statusCode ?? 502, downstreamResponseHeaders(answer.headers));
      answer.socket?.setTimeout(opts.timeoutMs, () => fail(504));
      pipeline(answer, res, () => done());
    });
    // The caller's body, as it arrives (pipe, not pipeline: an upstream failure must not destroy the caller's
    // socket before it gets its 502); a caller that goes away ends the upstream request too.
    req.pipe(upstream);
    req.on('error', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      done();
    });
  });
}

const isIp = (host: string) => /^[0-9.]+$/.test(host) || host.includes(':');
