import { StatusError } from '../../pkg/errors';

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
