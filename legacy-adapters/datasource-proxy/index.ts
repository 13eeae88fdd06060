import { defineArea, guard, type LegacyMethod, type LegacyParam, type LegacyRoute } from '../shared';
import { proxyById, proxyByUid } from './datasource-proxy-routes';

const tags = ['datasources'];
const METHODS: readonly LegacyMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const route: LegacyParam = {
  name: 'datasource_proxy_route',
  in: 'path',
  type: 'string',
  description: 'The path below the data source URL, with its query string: it may not leave that URL (`..`, `//`, backslashes, in any encoding: 403).',
};
const description = [
  "Forwards the call (method, path below the data source URL, query, body, both bodies streamed) with the data source's credentials",
  '(basic auth, custom headers). The caller\'s Authorization and cookies (but `jsonData.keepCookies`) and hop-by-hop headers are not forwarded;',
  'X-Forwarded-For/-Host/-Proto and the `Svc/<version>` User-Agent are set. The answer is the upstream\'s, without Set-Cookie, with',
  '`Content-Security-Policy: sandbox`. The plugin\'s route table decides which methods reach which paths and the role they need',
  '(Prometheus: GET anywhere, POST only to its query APIs, POST and DELETE of `rules` for Editors); `security.data_source_proxy_whitelist`',
  'limits the upstream hosts. Timeouts: `dataproxy.timeout` or `jsonData.timeout` (504), `dataproxy.dialTimeout` (502).',
].join(' ');
const responses = {
  200: { description: "The data source's answer: its status, headers and body." },
  400: { description: 'UID is invalid, id is invalid, an invalid proxy path or data source URL, or "Authentication to data source failed" (the upstream answered 401).' },
  403: { description: 'Access denied to datasource; a path leaving the data source URL; a host not in the allow-list; a method or path the plugin\'s routes refuse.' },
  404: { description: 'Unable to find datasource (also one of another organization).' },
  502: { description: 'The data source could not be reached (empty body).' },
  504: { description: 'The data source did not answer in time (empty body).' },
};
const needs = guard.inHandler(guard.can('datasources:query', 'datasources:uid:{uid}'), "the data source is looked up first (another organization's is 404, not 403)");

const byUid = METHODS.map((method): LegacyRoute => ({
  method, path: '/api/datasources/proxy/uid/:uid{/*datasource_proxy_route}', guard: needs, handler: proxyByUid, rawBody: true, tags,
  operationId: `datasourceProxy${method.toUpperCase()}ByUIDcalls`, summary: `Data source proxy ${method.toUpperCase()} calls.`, description, params: [route], responses,
}));
const byId = METHODS.map((method): LegacyRoute => ({
  method, path: '/api/datasources/proxy/:id{/*datasource_proxy_route}', guard: needs, handler: proxyById, rawBody: true, tags,
  operationId: `datasourceProxy${method.toUpperCase()}calls`, summary: `Data source proxy ${method.toUpperCase()} calls, by numeric id.`,
  description, params: [{ name: 'id', in: 'path', type: 'integer' }, route], responses,
  deprecated: { replacedBy: `${method.toUpperCase()} /api/datasources/proxy/uid/{uid}/{datasource_proxy_route}` },
}));

/**
 * The data source proxy, /api/datasources/proxy/uid/:uid/* and the deprecated /api/datasources/proxy/:id/* (spec
 * §4.5, anchor-breadth §2), any method: the request body is streamed to the data source unread (`rawBody`).
 */
export const dataSourceProxyArea = defineArea({ name: 'datasource-proxy', routes: [...byUid, ...byId] });
