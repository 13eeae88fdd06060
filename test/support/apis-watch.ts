import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { ADMIN } from './app';
import { onJsonLines } from './json-lines';

export interface WatchEvent {
  type: string;
  object: { metadata: { name: string; generation: number; resourceVersion: string }; spec: Record<string, unknown> };
}

/** An open watch: the events so far, `until(n)` waits (5 s at most) for n of them. */
export interface OpenWatch {
  events: WatchEvent[];
  until(n: number): Promise<WatchEvent[]>;
  close(): Promise<void>;
}

/**
 * A watch on an /apis collection of `app` as the admin, over a real socket (supertest buffers whole answers).
 *
 * @example const w = await watchApis(t.app, `${PLAYLISTS}?watch=true&resourceVersion=${rv}`);
 */
export async function watchApis(app: Express, pathAndQuery: string): Promise<OpenWatch> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const events: WatchEvent[] = [];
  const req = await new Promise<http.ClientRequest>((resolve, reject) => {
    const r = http.get(`http://127.0.0.1:${port}${pathAndQuery}`, { auth: `${ADMIN.user}:${ADMIN.password}`, agent: false }, (res) => {
      onJsonLines<WatchEvent>(res, (e) => events.push(e));
      resolve(r);
    });
    r.on('error', reject);
  });
  return {
    events,
    async until(n) {
      for (const deadline = Date.now() + 5000; events.length < n; ) {
        if (Date.now() > deadline) throw new Error(`got ${JSON.stringify(events.map((e) => [e.type, e.object.metadata.name]))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    async close() {
      req.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
