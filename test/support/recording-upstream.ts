import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the upstream received it: the request line's raw target, the headers, the whole body. */
export interface Recorded {
  method: string;
  /** Exactly as on the request line (`/base/api/v1/query?x=1`): nothing decoded or normalised. */
  rawPath: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** What the upstream answers a request: a status, headers, and a body sent at once or in chunks, possibly late. */
export interface Reply {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Sent one after another, `chunkDelayMs` apart, instead of `body`. */
  chunks?: Array<string | Buffer>;
  chunkDelayMs?: number;
  /** Waits this long before answering (a timeout). */
  delayMs?: number;
  /** Answers with what it received (method, raw path, headers, body length) as JSON. */
  echo?: boolean;
}

/**
 * A real HTTP server on a free port of 127.0.0.1 that records every request it receives and answers what the test
 * configured: the far side of the data source proxy in its tests (no mocked HTTP). The body is read whole before
 * answering, so a test sees every byte the proxy forwarded.
 *
 * @example
 *   const up = await startRecordingUpstream();
 *   up.reply = () => ({ status: 200, body: '{"status":"success"}' });
 *   // ... create a data source with url `${up.url}/base`, call the proxy ...
 *   expect(up.requests.map((r) => r.rawPath)).toEqual(['/base/api/v1/query']);
 */
export interface RecordingUpstream {
  url: string;
  port: number;
  requests: Recorded[];
  /** Requests whose connection closed before the answer was complete (the proxy gave up on them). */
  abandoned: number;
  /** The answer to each request (default 200 `{"ok":true}`). */
  reply: (req: Recorded) => Reply;
  /** Forget what was recorded and answer the default again. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY = (): Reply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });

/** `tls`: serve https with this PEM pair (a self-signed one: the proxy must refuse it unless told to skip the check). */
export async function startRecordingUpstream(opts: { tls?: { cert: string; key: string } } = {}): Promise<RecordingUpstream> {
  const sockets = new Set<Socket>();
  const state: RecordingUpstream = {
    url: '',
    port: 0,
    requests: [],
    abandoned: 0,
    reply: DEFAULT_REPLY,
    reset() {
      state.requests = [];
      state.abandoned = 0;
      state.reply = DEFAULT_REPLY;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const handler: http.RequestListener = (req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) state.abandoned += 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', rawPath: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      state.requests.push(recorded);
      const r = state.reply(recorded);
      const answer = () => {
        if (res.destroyed) return;
        if (r.echo) {
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
          res.end(JSON.stringify({ method: recorded.method, rawPath: recorded.rawPath, headers: recorded.headers, bodyLength: recorded.body.length }));
          return;
        }
        res.writeHead(r.status ?? 200, r.headers ?? {});
        if (!r.chunks) return res.end(r.body ?? '');
        const queue = [...r.chunks];
        const next = () => {
          if (res.destroyed) return;
          const c = queue.shift();
          if (c === undefined) return res.end();
          res.write(c);
          setTimeout(next, r.chunkDelayMs ?? 0);
        };
        next();
      };
      if (r.delayMs) setTimeout(answer, r.delayMs);
      else answer();
    });
  };
  const server = opts.tls ? https.createServer(opts.tls, handler) : http.createServer(handler);
  server.on(opts.tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${state.port}`;
  return state;
}
