import type { DataSourceInstance, ResourceRequest, ResourceResponse } from '../types';
import { callUpstream, InvalidDataSourceUrl, UpstreamUnreachable } from './prometheus-client';

/**
 * The resources a query editor needs (anchor-breadth §4): label names, label values, series and metric metadata,
 * forwarded with the data source's auth; Prometheus' status and JSON come back unchanged. Everything else of the
 * Prometheus API stays out of reach here (admin and write endpoints included): an unknown path is 404, a known
 * path with another method 405. The proxy, with its own route table, is the way to the rest.
 */
const RESOURCES: ReadonlyArray<{ path: RegExp; methods: readonly ('GET' | 'POST')[] }> = [
  { path: /^api\/v1\/labels$/, methods: ['GET', 'POST'] },
  { path: /^api\/v1\/label\/([^/]+)\/values$/, methods: ['GET'] },
  { path: /^api\/v1\/series$/, methods: ['GET', 'POST'] },
  { path: /^api\/v1\/metadata$/, methods: ['GET'] },
];

/** Prometheus' classic label names: a name that could be `..` or carry a `/` never reaches a URL. */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const json = (status: number, message: string, headers: Record<string, string> = {}): ResourceResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ message }),
});

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export async function prometheusResource(ds: DataSourceInstance, req: ResourceRequest, userAgent: string): Promise<ResourceResponse> {
  const path = req.path.replace(/^\/+/, '');
  const resource = RESOURCES.find((r) => r.path.test(path));
  if (!resource) return json(404, 'Not found: the Prometheus resources are api/v1/labels, api/v1/label/<name>/values, api/v1/series and api/v1/metadata');
  const method = req.method.toUpperCase();
  if (!(resource.methods as readonly string[]).includes(method)) return json(405, 'Method not allowed', { allow: resource.methods.join(', ') });
  let upstreamPath = path;
  const label = resource.path.exec(path)?.[1];
  if (label !== undefined) {
    const name = decoded(label);
    if (name === undefined || !LABEL_NAME.test(name)) return json(400, 'invalid label name');
    upstreamPath = `api/v1/label/${name}/values`;
  }
  const contentType = req.headers['content-type'] ?? '';
  if (method === 'POST' && req.body.length > 0 && !contentType.startsWith('application/x-www-form-urlencoded')) {
    return json(415, 'a POST to a Prometheus resource sends a form (application/x-www-form-urlencoded)');
  }
  try {
    const answer = await callUpstream(ds, {
      method: method as 'GET' | 'POST',
      path: upstreamPath,
      params: new URLSearchParams(req.query),
      body: method === 'POST' ? { contentType: 'application/x-www-form-urlencoded', data: req.body } : undefined,
      signal: req.signal,
      userAgent,
    });
    return { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {}, body: answer.body };
  } catch (err) {
    if (err instanceof UpstreamUnreachable) return json(err.status, err.message);
    if (err instanceof InvalidDataSourceUrl) return json(400, err.message);
    throw err;
  }
}
