import type { ErrorRequestHandler, Request } from 'express';
import { legacyInvalid, StatusError } from '../errors';
import type { Logger } from '../log';
import { databaseUnavailable } from '../registry/storage-errors';

/** body-parser's and the router's errors (http-errors carrying a 4xx `status`), as the API's own. */
function fromHttpError(err: { type?: string; limit?: number; status?: unknown }, req?: Request): StatusError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return StatusError.badRequest('the request body is not valid JSON');
    case 'entity.too.large':
      return StatusError.tooLarge(`the request body is larger than the limit of ${err.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return StatusError.unsupportedMediaType('the request body has an unsupported encoding or charset');
    case 'request.aborted':
      return StatusError.badRequest('the request was aborted');
  }
  if (err.status !== 400) return undefined;
  // The router could not decode a path parameter.
  if (err instanceof URIError) return StatusError.badRequest('the request path has malformed percent-encoding');
  // A body that is not in its Content-Encoding: the decompression stream failed.
  const encoding = req?.get('content-encoding')?.slice(0, 40);
  if (encoding) return StatusError.badRequest(`the request body is not valid ${encoding} data (Content-Encoding: ${encoding})`);
  return StatusError.badRequest('the request could not be read');
}

/** The API error an error stands for, if it stands for one (`req` gives the context of body-parser's errors). */
export function asStatusError(err: unknown, req?: Request): StatusError | undefined {
  if (err instanceof StatusError) return err;
  return (typeof err === 'object' && err !== null ? fromHttpError(err, req) : undefined) ?? databaseUnavailable(err);
}

/** A Kubernetes `Status` for `/apis`. */
export function statusBody(err: StatusError): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: err.statusWord,
    message: err.message,
    reason: err.reason,
    ...(err.details ? { details: err.details } : {}),
    code: err.code,
  };
}

/** The legacy `{message}` for `/api` (with `status` where the spec gives one, as in 412 version-mismatch). */
export function legacyBody(err: StatusError): Record<string, unknown> {
  if (err.legacyBody) return err.legacyBody;
  return { message: err.message, ...(err.statusWord !== 'Failure' ? { status: err.statusWord } : {}) };
}

/**
 * The one error handler: every error becomes a Status under /apis and a `{message}` elsewhere. Anything that is
 * not a StatusError is logged and answered as a bare 500, with no stack trace or internal message.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    let status = asStatusError(err, req);
    if (!status) {
      log.error('unhandled error', { method: req.method, path: req.path, error: err instanceof Error ? err.stack ?? err.message : String(err) });
      status = StatusError.internal();
    }
    if (req.path.startsWith('/apis')) return void res.status(status.code).json(statusBody(status));
    const legacy = legacyInvalid(status);
    res.status(legacy.code).json(legacyBody(legacy));
  };
}
