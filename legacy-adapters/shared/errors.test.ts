import { StatusError } from '../../pkg/errors';
import { byKind, legacyError, type LegacyErrors } from './errors';

const folders = { group: 'folder.svc.app', resource: 'folders' };
const dashboards = { group: 'dashboard.svc.app', resource: 'dashboards' };
const shape = (err: unknown) => {
  const e = err as StatusError;
  return [e.code, e.message, e.statusWord];
};

describe('legacyError', () => {
  const table: LegacyErrors = {
    notFound: byKind({ folders: () => new StatusError(404, 'NotFound', 'Folder not found', undefined, 'not-found') }),
    alreadyExists: () => new StatusError(412, 'AlreadyExists', 'taken'),
    conflict: () => new StatusError(412, 'Conflict', 'changed', undefined, 'version-mismatch'),
    invalid: (err) => StatusError.badRequest(err.details?.causes?.[0]?.message ?? err.message),
    badRequest: (err) => (err.details?.causes?.length ? StatusError.badRequest('folder not found') : err),
    forbidden: byKind({ dashboards: () => new StatusError(404, 'NotFound', 'Dashboard not found') }),
  };

  it("words each reason of the registry's errors with the area's table", () => {
    expect(shape(legacyError(table, StatusError.notFound(folders, 'x')))).toEqual([404, 'Folder not found', 'not-found']);
    expect(shape(legacyError(table, StatusError.alreadyExists(folders, 'x')))).toEqual([412, 'taken', 'Failure']);
    expect(shape(legacyError(table, StatusError.conflict(folders, 'x')))).toEqual([412, 'changed', 'version-mismatch']);
    const invalid = StatusError.invalid({ group: 'folder.svc.app', kind: 'Folder' }, 'x', [{ field: 'spec.title', message: 'title cannot be empty' }]);
    expect(shape(legacyError(table, invalid))).toEqual([400, 'title cannot be empty', 'Failure']);
    expect(shape(legacyError(table, StatusError.badRequest('folder "p" not found', [{ field: 'metadata.annotations[svc.app/folder]', message: 'x' }])))).toEqual([400, 'folder not found', 'Failure']);
    expect(shape(legacyError(table, StatusError.accessDenied(dashboards, 'd', 'dashboards:read')))).toEqual([404, 'Dashboard not found', 'Failure']);
  });

  it('words a kind only with its own wording: other kinds and adapter errors without a kind pass unchanged', () => {
    const dashboardMissing = StatusError.notFound(dashboards, 'd');
    expect(legacyError(table, dashboardMissing)).toBe(dashboardMissing);
    const own = new StatusError(404, 'NotFound', 'User not found');
    expect(legacyError(table, own)).toBe(own);
    const folderForbidden = StatusError.accessDenied(folders, 'f', 'folders:read');
    expect(legacyError(table, folderForbidden)).toBe(folderForbidden);
  });

  it("passes errors already in the legacy API's words, reasons without a wording and non-StatusErrors", () => {
    const mismatch = new StatusError(412, 'Conflict', 'The dashboard has been changed by someone else', undefined, 'version-mismatch');
    expect(legacyError(table, mismatch)).toBe(mismatch);
    const gone = StatusError.gone('too old');
    expect(legacyError(table, gone)).toBe(gone);
    const plain = new Error('x');
    expect(legacyError(table, plain)).toBe(plain);
    const missing = StatusError.notFound(folders, 'x');
    expect(legacyError({}, missing)).toBe(missing);
  });

  it('does not take a kind from the prototype of the table', () => {
    const odd = new StatusError(404, 'NotFound', 'x', { kind: 'toString' });
    expect(legacyError(table, odd)).toBe(odd);
  });
});
