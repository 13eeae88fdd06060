import type { StatusError } from '../../pkg/errors';
import type { ProxyRoute } from '../../pkg/plugins';
import { checkProxyCall, type ProxyCall } from './proxy-rules';

/** The anchor's Prometheus routes (anchor-breadth §2.5), as a plugin declares them. */
const prometheus: ProxyRoute[] = [
  { path: 'api/v1/status/flags', methods: ['GET'], reqRole: 'Admin' },
  ...['api/v1/query', 'api/v1/query_range', 'api/v1/series', 'api/v1/labels', 'api/v1/query_exemplars'].map((path): ProxyRoute => ({ path, methods: ['POST'] })),
  { path: '/rules', methods: ['GET'] },
  { path: '/rules', methods: ['POST', 'DELETE'], reqRole: 'Editor' },
];

const outcome = (routes: readonly ProxyRoute[] | undefined, call: Partial<ProxyCall>): string => {
  try {
    checkProxyCall(routes, { method: 'GET', path: '', type: 'prometheus', role: 'Viewer', isServerAdmin: false, ...call });
    return 'ok';
  } catch (err) {
    return `${(err as StatusError).code} ${(err as StatusError).message}`;
  }
};

describe('checkProxyCall on Prometheus', () => {
  it.each([
    ['GET', 'api/v1/query', 'Viewer', 'ok'],
    ['GET', 'api/v1/anything/else', 'Viewer', 'ok'],
    ['HEAD', 'api/v1/anything', 'Viewer', 'ok'],
    ['POST', 'api/v1/query', 'Viewer', 'ok'],
    ['POST', 'api/v1/query_range', 'Viewer', 'ok'],
    ['POST', 'api/v1/labels', 'Viewer', 'ok'],
    ['POST', 'api/v1/admin/tsdb/delete_series', 'Admin', '403 non allow-listed POSTs not allowed on proxied prometheus datasource'],
    ['PUT', 'api/v1/query', 'Admin', '403 non allow-listed PUTs not allowed on proxied prometheus datasource'],
    ['PATCH', 'api/v1/query', 'Admin', '403 non allow-listed PATCHs not allowed on proxied prometheus datasource'],
    ['DELETE', 'api/v1/query', 'Admin', '403 non allow-listed DELETEs not allowed on proxied prometheus datasource'],
    ['GET', 'rules', 'Viewer', 'ok'],
    ['POST', 'rules/ns', 'Viewer', '403 plugin proxy route access denied'],
    ['POST', 'rules/ns', 'Editor', 'ok'],
    ['DELETE', 'rules/ns/group', 'Viewer', '403 plugin proxy route access denied'],
    ['DELETE', 'rules/ns/group', 'Editor', 'ok'],
    ['GET', 'api/v1/status/flags', 'Editor', '403 plugin proxy route access denied'],
    ['GET', 'api/v1/status/flags', 'Admin', 'ok'],
  ] as const)('%s %s as %s: %s', (method, path, role, expected) => {
    expect(outcome(prometheus, { method, path, role })).toBe(expected);
  });

  it('lets a server admin through every role, not through a method no route allows', () => {
    expect(outcome(prometheus, { method: 'GET', path: 'api/v1/status/flags', role: 'Viewer', isServerAdmin: true })).toBe('ok');
    expect(outcome(prometheus, { method: 'PUT', path: 'rules', role: 'Admin', isServerAdmin: true })).toMatch(/^403 non allow-listed PUTs/);
  });

  it('refuses a matched route to a caller without a role in the organization', () => {
    expect(outcome(prometheus, { method: 'POST', path: 'api/v1/query', role: 'None' })).toBe('403 plugin proxy route access denied');
  });
});

describe('checkProxyCall by type', () => {
  it('lets any method reach any path of a plugin without routes', () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(outcome(undefined, { method, path: 'x', type: 'svc-testdata-datasource' })).toBe('ok');
  });

  it('guards the writes of Prometheus-like types without a route table too', () => {
    expect(outcome(undefined, { method: 'POST', path: 'loki/api/v1/push', type: 'loki' })).toBe('403 non allow-listed POSTs not allowed on proxied loki datasource');
    expect(outcome(undefined, { method: 'GET', path: 'loki/api/v1/labels', type: 'loki' })).toBe('ok');
  });

  it("refuses Elasticsearch's writes but _msearch", () => {
    expect(outcome(undefined, { method: 'DELETE', path: 'idx', type: 'elasticsearch' })).toBe('403 deletes not allowed on proxied Elasticsearch datasource');
    expect(outcome(undefined, { method: 'PUT', path: 'idx', type: 'elasticsearch' })).toBe('403 puts not allowed on proxied Elasticsearch datasource');
    expect(outcome(undefined, { method: 'POST', path: 'idx/_search', type: 'elasticsearch' })).toBe('403 posts not allowed on proxied Elasticsearch datasource except on /_msearch');
    expect(outcome(undefined, { method: 'POST', path: '_msearch', type: 'elasticsearch' })).toBe('ok');
  });
});
