import { DataSourceMessages } from '../../apis/datasource.svc.app/v1beta1/datasource';
import { legacyCauseMessage, type StatusCause, StatusError } from '../../pkg/errors';
import type { LegacyErrors, Wording } from '../shared';

const GROUP = 'datasource.svc.app';

/** The anchor's errutil body (`{statusCode, messageId, message}`) of its validation errors. */
function errutil(messageId: string, message: string): StatusError {
  return new StatusError(400, 'BadRequest', message, undefined, 'Failure', { statusCode: 400, messageId, message });
}

/** The anchor's answer to each field the kind refuses. */
function invalidField({ field, reason, message }: StatusCause): StatusError {
  if (field === 'metadata.name') return errutil('datasource.uidInvalid', DataSourceMessages.uidInvalid);
  if (field === 'spec.name' && reason === 'FieldValueTooLong') return errutil('datasource.nameInvalid', DataSourceMessages.nameInvalid);
  if (field === 'spec.url' && reason === 'FieldValueTooLong') return errutil('datasource.urlInvalid', DataSourceMessages.urlInvalid);
  if (message === DataSourceMessages.urlSyntax || message === DataSourceMessages.jsonDataTooLarge) return StatusError.badRequest(message);
  return StatusError.badRequest(legacyCauseMessage({ field, message }));
}

/** A wording of the data source kind's errors only; others (and the adapter's own) pass. */
const ofDataSources = (wording: Wording): Wording => (err) => (err.details?.group === GROUP ? wording(err) : err);

/** The registry's errors on data sources in the anchor's words (anchor-api.md, anchor-breadth §1). */
export const dataSourceErrors: LegacyErrors = {
  notFound: ofDataSources(() => new StatusError(404, 'NotFound', 'Data source not found')),
  alreadyExists: ofDataSources(() => new StatusError(409, 'AlreadyExists', DataSourceMessages.uidTaken)),
  invalid: ofDataSources((err) => {
    const cause = err.details?.causes?.[0];
    return cause ? invalidField(cause) : StatusError.badRequest('bad request data');
  }),
};

/** A PUT renaming a data source onto another's name: the anchor's update handler prefixes the store's refusal. */
export function updateRefusal(err: unknown): unknown {
  if (err instanceof StatusError && err.message === DataSourceMessages.nameTaken) {
    return new StatusError(409, 'Conflict', `Failed to update datasource: ${DataSourceMessages.nameTaken}`);
  }
  return err;
}
