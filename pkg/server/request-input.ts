import type { NextFunction, Request, Response } from 'express';
import { StatusError } from '../errors';
import { describeProblem, jsonProblem, textProblem } from '../meta';

/**
 * The one gate every request's input passes before any route reads it (see pkg/meta/input-limits.ts): the path and
 * the query here, the body once parsed ({@link checkRequestBody}). Whatever a route then does with a name, a search
 * term or a body, it holds nothing PostgreSQL refuses and nothing nested deeper than the walks of an object can go.
 */
export function checkRequestTarget(req: Request, _res: Response, next: NextFunction): void {
  next(targetProblem(req));
}

/** The body, as express.json or express.text left it: 400 naming what cannot be stored and where. */
export function checkRequestBody(req: Request, _res: Response, next: NextFunction): void {
  const problem = req.body === undefined ? undefined : jsonProblem(req.body);
  next(problem ? StatusError.badRequest(`the request body is not valid: ${describeProblem(problem, 'the body')}`) : undefined);
}

function targetProblem(req: Request): StatusError | undefined {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    return StatusError.badRequest('the request path has malformed percent-encoding');
  }
  const inPath = textProblem(path);
  if (inPath) return StatusError.badRequest(`the request path ${inPath}`);
  for (const [name, value] of Object.entries(req.query)) {
    const problem = textProblem(name) ?? jsonProblem(value)?.message;
    if (problem) return StatusError.badRequest(`the query parameter ${JSON.stringify(name)} ${problem}`);
  }
  return undefined;
}
