import { type StatusCause, StatusError } from './status-error';

/**
 * A field error of the registry (a cause of its 422 Invalid) in the legacy API's words: the field as the legacy body
 * names it (no `spec.`), and a length limit worded as the anchor words its own (`uid too long, max 40 characters`).
 *
 * @example
 *   legacyCauseMessage({ field: 'spec.title', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 5000 characters' })
 *   // 'title too long, max 5000 characters'
 */
export function legacyCauseMessage(cause: StatusCause): string {
  const field = (cause.field ?? '').replace(/^spec\./, '');
  const max = /more than (\d+) characters/.exec(cause.message)?.[1];
  if (cause.reason === 'FieldValueTooLong' && max && field) return `${field} too long, max ${max} characters`;
  return field ? `${field}: ${cause.message}` : cause.message;
}

/**
 * The registry's 422 Invalid as the legacy API answers bad input: 400 `{message}` naming the fields, without the
 * kind's internal name (`Team.iam.svc.app "x" is invalid: ...`). Adapters that word it themselves already did;
 * anything else passes unchanged.
 */
export function legacyInvalid(err: StatusError): StatusError {
  const causes = err.details?.causes;
  if (err.code !== 422 || err.reason !== 'Invalid' || !err.details?.kind || !causes?.length) return err;
  return StatusError.badRequest(causes.map(legacyCauseMessage).join('; '));
}
