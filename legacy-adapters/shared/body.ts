import type { Request } from 'express';
import type { ZodType } from 'zod';
import { StatusError } from '../../pkg/errors';

/**
 * The request body as a JSON object, else 400 `message` (the anchor's words differ by area: `bad request data`,
 * `Bad request data`).
 */
export function bodyObject(req: Request, message = 'bad request data'): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw StatusError.badRequest(message);
  return b as Record<string, unknown>;
}

/**
 * The body bound to `schema`, else 400 `{message}`.
 * @example const { name } = bind(req, z.object({ name: z.string().trim().min(1) }));
 */
export function bind<T>(req: Request, schema: ZodType<T>, message = 'bad request data'): T {
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw StatusError.badRequest(message);
  return parsed.data;
}
