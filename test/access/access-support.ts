import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../support/app';
import { onJsonLines } from '../support/json-lines';
import { PASSWORD } from '../support/users';

export const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((i) => i.metadata.name).sort();

export const folderBody = (name: string, parent?: string) => ({
  metadata: { name, ...(parent ? { annotations: { 'svc.app/folder': parent } } : {}) },
  spec: { title: name },
});
export const dashboardBody = (name: string, folder?: string) => ({
  metadata: { name, ...(folder ? { annotations: { 'svc.app/folder': folder } } : {}) },
  spec: { title: name, schemaVersion: 41 },
});

export interface WatchLine {
  type: string;
  object: { metadata: { name?: string } };
}

/**
 * A watch as a user over a real socket: resolves with every line once the server ends it (`timeoutSeconds`), or as
 * soon as `until` holds for the lines so far (so a slow machine gets the whole timeout, a fast one does not wait it
 * out), while `during` makes changes.
 */
export async function watchAs(t: TestApp, login: string, path: string, during: (lines: WatchLine[]) => Promise<void>, until?: (lines: WatchLine[]) => boolean): Promise<WatchLine[]> {
  const server = http.createServer(t.app).listen(0);
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    const lines: WatchLine[] = [];
    let started!: () => void;
    const headers = new Promise<void>((r) => (started = r));
    const done = new Promise<void>((resolve, reject) => {
      const req = http.get({ port, path, auth: `${login}:${PASSWORD}` }, (res) => {
        started();
        onJsonLines<WatchLine>(res, (line) => {
          lines.push(line);
          if (until?.(lines)) {
            req.destroy();
            resolve();
          }
        });
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    // Let the watch start (its initial list) before changing anything.
    await headers;
    await new Promise((r) => setTimeout(r, 300));
    await during(lines);
    await done;
    return lines;
  } finally {
    server.close();
  }
}

/** Waits (up to 20 s) until a watch's lines satisfy `ok`. */
export async function seen(lines: WatchLine[], ok: (lines: WatchLine[]) => boolean): Promise<void> {
  for (let waited = 0; !ok(lines); waited += 50) {
    if (waited > 20_000) throw new Error(`the watch never showed it: ${JSON.stringify(lines.map((l) => [l.type, l.object.metadata.name]))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A watch held open over a real socket: its lines so far, and how it ended. */
export interface OpenWatch {
  lines: WatchLine[];
  /** The HTTP status of the answer. */
  status: number;
  /** Resolves when the server ends the stream (or the watch is closed). */
  ended: Promise<void>;
  /** Whether the server has ended the stream. */
  isEnded(): boolean;
  close(): void;
}

/**
 * Opens a watch with the given credentials (a user made by `createUser`, or raw headers such as a bearer token or a
 * session cookie) and answers once its headers arrived; the caller closes it.
 */
export async function openWatch(t: TestApp, path: string, who: { login: string } | { headers: Record<string, string> }): Promise<OpenWatch> {
  const server = http.createServer(t.app).listen(0);
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  const lines: WatchLine[] = [];
  let ended = false;
  const auth = 'login' in who ? { auth: `${who.login}:${PASSWORD}` } : { headers: who.headers };
  return new Promise<OpenWatch>((resolve, reject) => {
    let done!: () => void;
    const endedP = new Promise<void>((r) => (done = () => ((ended = true), server.close(), r())));
    const req = http.get({ port, path, ...auth }, (res) => {
      onJsonLines<WatchLine>(res, (line) => lines.push(line));
      res.on('end', done);
      res.on('close', done);
      resolve({ lines, status: res.statusCode ?? 0, ended: endedP, isEnded: () => ended, close: () => (req.destroy(), done()) });
    });
    req.on('error', (err) => (ended ? undefined : reject(err)));
  });
}

/** `TYPE name` of each object event, for assertions. */
export const events = (lines: WatchLine[]) => lines.filter((l) => l.type !== 'BOOKMARK').map((l) => `${l.type} ${l.object.metadata.name ?? ''}`);
