import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { StatusError } from '../errors';
import { legacyBody, statusBody } from './render-error';

/** Node's parser errors with a status of their own (a URI too long overflows the headers too) (Kubernetes has no reason for them: BadRequest), with the reason phrase. */
const PARSER_ERRORS: Readonly<Record<string, [StatusError, string]>> = {
  HPE_HEADER_OVERFLOW: [new StatusError(431, 'BadRequest', 'the request line and headers are larger than the server accepts'), 'Request Header Fields Too Large'],
};

/**
 * Answers a request Node's HTTP parser refused (headers too large, a malformed request line) in the API's own
 * shapes instead of Node's empty 400/431: a `Status` when the request line names `/apis`, `{message}` otherwise.
 * The connection is closed after the answer, as the request can no longer be framed.
 *
 * @example
 *   answerClientErrors(http.createServer(app));
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, phrase] = PARSER_ERRORS[err.code ?? ''] ?? [StatusError.badRequest('the request could not be parsed as HTTP'), 'Bad Request'];
    const requestLine = err.rawPacket?.subarray(0, 256).toString('latin1') ?? '';
    const body = JSON.stringify(/^[A-Z]+ \/apis(\/|\?| |$)/.test(requestLine) ? statusBody(status) : legacyBody(status));
    socket.end(
      `HTTP/1.1 ${status.code} ${phrase}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
