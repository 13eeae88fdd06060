import type { Request } from 'express';
import { StatusError } from '../../pkg/errors';

/**
 * Query and path parameters, read once for every area as the anchor reads them (its QueryInt, its 400s for a
 * path id that is no number).
 */

/** The first value of a query parameter (`?a=1&a=2` is `1`), or undefined. */
export function queryString(v: unknown): string | undefined {
  const one: unknown = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one : undefined;
}

/**
 * The anchor's QueryInt: a base-10 integer, else 0.
 * @example queryInt(' 20 ') // 20; queryInt('abc') // 0
 */
export function queryInt(v: unknown): number {
  const s = queryString(v)?.trim() ?? '';
  return /^-?[0-9]{1,15}$/.test(s) ? Number(s) : 0;
}

/** A positive integer query parameter, else `fallback` (absent, 0, negative, not a number). */
export function positiveQueryInt(v: unknown, fallback: number): number {
  const n = queryInt(v);
  return n > 0 ? n : fallback;
}

/** A positive integer of a JSON body (a number or a string of digits), else undefined. */
export function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * A positive integer path parameter, else 400 `message` (the anchor's `<name> is invalid` by default).
 * @example idParam(req, 'teamId') // 7 for /api/teams/7
 */
export function idParam(req: Request, name: string, message = `${name} is invalid`): number {
  const v = String(req.params[name] ?? '');
  if (!/^[1-9][0-9]{0,14}$/.test(v)) throw StatusError.badRequest(message);
  return Number(v);
}
