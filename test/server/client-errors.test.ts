/** Requests Node's HTTP parser refuses are answered in the API's shapes, not with Node's empty 400 or 431. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from '../../pkg/server/client-error';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
let server: http.Server;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  server = http.createServer(t.app);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(request: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (d) => (data += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head ?? '')?.[1]), body: JSON.parse(body ?? 'null') });
    });
  });
}

const huge = `X-Filler: ${'x'.repeat(20_000)}\r\n`;

it('headers too large: 431 with a Status under /apis', async () => {
  const res = await raw(`GET /apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards HTTP/1.1\r\nHost: x\r\n${huge}\r\n`);
  expect(res.status).toBe(431);
  expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 431 });
  expect(res.body.message).toMatch(/headers are larger/);
});

it('headers too large: 431 with {message} under /api', async () => {
  const res = await raw(`GET /api/search HTTP/1.1\r\nHost: x\r\n${huge}\r\n`);
  expect(res.status).toBe(431);
  expect(res.body).toEqual({ message: 'the request line and headers are larger than the server accepts' });
});

it('a request line that is not HTTP: 400 {message}', async () => {
  const res = await raw('NOT HTTP AT ALL\r\n\r\n');
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ message: 'the request could not be parsed as HTTP' });
});
