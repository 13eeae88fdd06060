import { legacyCauseMessage, StatusError } from '../../pkg/errors';

/** What one registry error says under /api: the anchor's error, or the registry's own to pass it unchanged. */
export type Wording = (err: StatusError) => StatusError;

/**
 * An area's wordings of the registry's errors, one per reason the registry answers with (`StatusError.notFound`,
 * `alreadyExists`, `conflict`, `invalid`, and its 400s such as a missing folder); a reason left out passes as is.
 *
 * @example
 *   const folderErrors: LegacyErrors = { notFound: folderNotFound, alreadyExists: () => new StatusError(412, 'AlreadyExists', 'a folder/dashboard with the same uid already exists') };
 */
export interface LegacyErrors {
  notFound?: Wording;
  alreadyExists?: Wording;
  conflict?: Wording;
  invalid?: Wording;
  badRequest?: Wording;
  forbidden?: Wording;
}

const WORDING_OF: Partial<Record<StatusError['reason'], keyof LegacyErrors>> = {
  NotFound: 'notFound',
  AlreadyExists: 'alreadyExists',
  Conflict: 'conflict',
  Invalid: 'invalid',
  BadRequest: 'badRequest',
  Forbidden: 'forbidden',
};

/**
 * The one translation of registry errors into the legacy `{message}` shapes: `err` in the area's words. Errors that
 * are already the legacy API's (a `status` word other than `Failure`, such as `version-mismatch`) and anything that
 * is not a StatusError pass unchanged.
 *
 * @example legacyError({ notFound: () => new StatusError(404, 'NotFound', 'Dashboard not found') }, StatusError.notFound(gr, 'a')) // 404 Dashboard not found
 */
export function legacyError(errors: LegacyErrors, err: unknown): unknown {
  if (!(err instanceof StatusError) || err.statusWord !== 'Failure') return err;
  const key = WORDING_OF[err.reason];
  const wording = key ? errors[key] : undefined;
  return wording ? wording(err) : err;
}

/**
 * A wording that depends on the kind the registry's error names (`details.kind`: the plural, as in `dashboards`);
 * errors of other kinds, or of none (an adapter's own), pass unchanged.
 *
 * @example byKind({ folders: () => new StatusError(404, 'NotFound', 'Folder not found'), dashboards: () => new StatusError(404, 'NotFound', 'Dashboard not found') })
 */
export function byKind(wordings: Readonly<Record<string, Wording>>): Wording {
  return (err) => {
    const kind = err.details?.kind;
    const wording = kind !== undefined && Object.hasOwn(wordings, kind) ? wordings[kind] : undefined;
    return wording ? wording(err) : err;
  };
}

/**
 * The registry's 422 in the legacy body's field names: each cause's field renamed by `fields` (a field or a path
 * under it), then worded as every legacy 400 of an invalid field is (legacyCauseMessage). For areas whose body names
 * a field otherwise than the kind: a playlist's `name` is its `spec.title`.
 *
 * @example invalidAs({ 'spec.title': 'name' }) // a too-long title: 400 'name too long, max 5000 characters'
 */
export function invalidAs(fields: Readonly<Record<string, string>>): Wording {
  const rename = (field: string | undefined) => {
    for (const [from, to] of Object.entries(fields)) {
      if (field === from || field?.startsWith(`${from}.`) || field?.startsWith(`${from}[`)) return to + field.slice(from.length);
    }
    return field;
  };
  return (err) => {
    const causes = err.details?.causes;
    if (!causes?.length) return err;
    return StatusError.badRequest(causes.map((c) => legacyCauseMessage({ ...c, field: rename(c.field) })).join('; '));
  };
}
