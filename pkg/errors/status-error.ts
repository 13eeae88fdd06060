/**
 * The one error type of the API. It carries what a Kubernetes `Status` carries; the HTTP layer renders it as a
 * `Status` under `/apis` and as the legacy `{message, ...}` under `/api` (see `pkg/server/render-error.ts`).
 *
 * @example
 *   throw StatusError.notFound({ group: 'dashboard.svc.app', resource: 'dashboards' }, 'abc');
 *   // 404 Status: dashboards.dashboard.svc.app "abc" not found
 */
import { accessDenied } from './access-denied';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

/** One field-level problem, as in `Status.details.causes`. */
export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** What a resource is called in messages: `dashboards.dashboard.svc.app`. */
export interface GroupResourceRef {
  group: string;
  resource: string;
}

/** A kind as Invalid errors name it: `Dashboard.dashboard.svc.app`. */
export interface GroupKindRef {
  group: string;
  kind: string;
}

export function qualifiedResource(gr: GroupResourceRef): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /**
     * The `status` field of the rendered body. Kubernetes always says `Failure`; a few endpoints of the spec
     * answer `{message, status}` with their own word (`version-mismatch`), which clients of both styles read.
     */
    readonly statusWord: string = 'Failure',
    /** The body under `/api` when it is not `{message}`: the anchor's access-denied body (see `accessDenied`). */
    readonly legacyBody?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  static badRequest(message: string, causes?: StatusCause[]): StatusError {
    return new StatusError(400, 'BadRequest', message, causes ? { causes } : undefined);
  }

  static unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  }

  static forbidden(gr: GroupResourceRef, name: string, why: string, user = 'anonymous'): StatusError {
    const target = name ? `resource "${gr.resource}" in API group "${gr.group}" "${name}"` : `resource "${gr.resource}" in API group "${gr.group}"`;
    return new StatusError(403, 'Forbidden', `${qualifiedResource(gr)}${name ? ` "${name}"` : ''} is forbidden: User "${user}" cannot access ${target}: ${why}`, {
      name: name || undefined,
      group: gr.group,
      kind: gr.resource,
    });
  }

  /**
   * 403 for a missing RBAC action: a Forbidden Status naming the action under `/apis`, the anchor's
   * `{title: 'Access denied', message: "... Permissions needed: <action>", accessErrorId}` under `/api`.
   *
   * @example
   *   throw StatusError.accessDenied({ group: 'dashboard.svc.app', resource: 'dashboards' }, 'abc', 'dashboards:write', 'editor');
   *   // dashboards.dashboard.svc.app "abc" is forbidden: User "editor" cannot access ...: missing permission dashboards:write
   */
  static accessDenied(gr: GroupResourceRef, name: string, action: string, user?: string): StatusError {
    const status = StatusError.forbidden(gr, name, `missing permission ${action}`, user);
    return new StatusError(403, 'Forbidden', status.message, status.details, 'Failure', accessDenied(action) as unknown as Record<string, unknown>);
  }

  static notFound(gr: GroupResourceRef, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  }

  static alreadyExists(gr: GroupResourceRef, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, {
      name,
      group: gr.group,
      kind: gr.resource,
    });
  }

  static conflict(gr: GroupResourceRef, name: string, why = 'the object has been modified; please apply your changes to the latest version and try again'): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, {
      name,
      group: gr.group,
      kind: gr.resource,
    });
  }

  /** 422 with one cause per field, worded as kube-apiserver words it. */
  static invalid(gk: GroupKindRef, name: string, causes: StatusCause[]): StatusError {
    const list = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
    const summary = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${gk.kind}.${gk.group} "${name}" is invalid: ${summary}`, {
      name,
      group: gk.group,
      kind: gk.kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
    });
  }

  static gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  }

  static expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  }

  static methodNotAllowed(message = 'the server does not allow this method on the requested resource'): StatusError {
    return new StatusError(405, 'MethodNotAllowed', message);
  }

  static notAcceptable(message: string): StatusError {
    return new StatusError(406, 'NotAcceptable', message);
  }

  static tooLarge(message = 'the request body is too large'): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', message);
  }

  static unsupportedMediaType(message: string): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', message);
  }

  static internal(message = 'an internal error occurred'): StatusError {
    return new StatusError(500, 'InternalError', message);
  }

  static unavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/**
 * For reads of what may be gone: a 404 becomes `undefined`, anything else (a 503 when the database is away) is
 * rethrown, so an outage is never mistaken for an absent object.
 *
 * @example
 *   const parent = await registry.get(ctx, folders, uid).catch(notFoundAsUndefined);
 */
export function notFoundAsUndefined(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 404) return undefined;
  throw err;
}
