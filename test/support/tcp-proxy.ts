import net from 'node:net';

/**
 * A TCP proxy to PostgreSQL that a test can cut, to see what clients get during a database outage; `sent` sees what
 * the clients send (their protocol messages).
 */
export async function startTcpProxy(target: { host: string; port: number }, opts: { sent?: (chunk: Buffer) => void } = {}) {
  const sockets = new Set<net.Socket>();
  let up = true;
  let frozen = false;
  const server = net.createServer((client) => {
    if (!up) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    if (opts.sent) client.on('data', opts.sent);
    client.pipe(upstream).pipe(client);
    // After pipe(), which resumes its source.
    if (frozen) for (const s of [client, upstream]) s.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** Drops every connection and refuses new ones. */
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      up = true;
    },
    /**
     * Stops passing bytes either way, connections left open and new ones accepted: a database that hangs (stopped,
     * or a network that drops packets) rather than refusing.
     */
    freeze() {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw() {
      frozen = false;
      for (const s of sockets) s.resume();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
