import type { ResourceRequest, ResourceResponse } from '../types';
import { SCENARIOS } from './testdata-scenarios';

/** The anchor's text of the root resource. */
export const HELLO = 'Hello world from test datasource!';

const json = (status: number, body: unknown): ResourceResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The request body as the echo shows it: JSON when it is JSON, else its text ('' when none). */
function bodyOf(req: ResourceRequest): unknown {
  const text = req.body.toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The testdata resources (anchor-breadth §4): `` says hello, `scenarios` lists the scenarios by id, `test` and
 * `test/json` echo the request (the caller's credentials were removed before it got here); anything else is 404.
 */
export async function testDataResources(req: ResourceRequest): Promise<ResourceResponse> {
  switch (req.path) {
    case '':
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: HELLO };
    case 'scenarios':
      return json(200, [...SCENARIOS].sort((a, b) => (a.id < b.id ? -1 : 1)).map(({ id, name, description, stringInput }) => ({ id, name, description, stringInput })));
    case 'test':
    case 'test/json':
      return json(200, { message: HELLO, request: { method: req.method, url: `/${req.path}${req.query ? `?${req.query}` : ''}`, headers: req.headers, body: bodyOf(req) } });
    default:
      return json(404, { message: 'Not found' });
  }
}
