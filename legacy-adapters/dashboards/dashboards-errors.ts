import { Annotations } from '../../pkg/meta';
import { legacyCauseMessage, StatusError } from '../../pkg/errors';
import { byKind, type LegacyErrors } from '../shared/errors';

/**
 * The registry's answers to dashboard requests, in the anchor's words (anchor-api.md, spec §7). The rules that
 * produce them (conflicts, names, folders, the title) are the registry's; only the wording is the legacy API's.
 */
export const dashboardNotFound = () => new StatusError(404, 'NotFound', 'Dashboard not found');

export const versionMismatch = () => new StatusError(412, 'Conflict', 'The dashboard has been changed by someone else', undefined, 'version-mismatch');

export const nameExists = () => new StatusError(412, 'Conflict', 'A dashboard with the same uid already exists', undefined, 'name-exists');

export const folderNotFound = () => StatusError.badRequest('folder not found');

export const emptyTitle = () => new StatusError(400, 'BadRequest', 'Dashboard title cannot be empty', undefined, 'empty-name');

export const versionNotFound = (version: number, dashboardId: number) =>
  new StatusError(404, 'NotFound', `Dashboard version ${version} not found for dashboardId ${dashboardId}`);

const FOLDER_FIELD = `metadata.annotations[${Annotations.folder}]`;

/** A 422 of the registry as the anchor's 400: the title, the uid, else the registry's own message. */
function fromInvalid(err: StatusError): StatusError {
  const causes = err.details?.causes ?? [];
  const title = causes.find((c) => c.field?.startsWith('spec.title'));
  if (title?.reason === 'FieldValueTooLong') return StatusError.badRequest(legacyCauseMessage(title));
  if (title) return emptyTitle();
  const name = causes.find((c) => c.field === 'metadata.name' || c.field === 'metadata.generateName');
  if (name) return StatusError.badRequest(name.message.startsWith('Too long') ? 'uid too long, max 40 characters' : 'uid contains illegal characters');
  const libraryPanel = causes.find((c) => c.field?.endsWith('.libraryPanel.uid'));
  if (libraryPanel) return StatusError.badRequest(libraryPanel.message);
  const tags = causes.find((c) => c.field?.startsWith('spec.tags'));
  if (tags) return StatusError.badRequest(legacyCauseMessage(tags));
  return StatusError.badRequest(err.message);
}

/**
 * The registry's errors in the anchor's words, for every dashboard route: a missing dashboard, a taken uid, a
 * changed version, an invalid field, a missing folder. Errors that are already the legacy API's (a `status` word),
 * other kinds' 404s and everything else (403, 503...) pass unchanged.
 *
 * @example legacyError(dashboardErrors, StatusError.alreadyExists({ group: 'dashboard.svc.app', resource: 'dashboards' }, 'a')) // 412 name-exists
 */
export const dashboardErrors: LegacyErrors = {
  notFound: byKind({ dashboards: dashboardNotFound }),
  alreadyExists: nameExists,
  conflict: versionMismatch,
  invalid: fromInvalid,
  badRequest: (err) => (err.details?.causes?.some((c) => c.field === FOLDER_FIELD) ? folderNotFound() : err),
};
