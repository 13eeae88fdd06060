import { StatusError } from '../../pkg/errors';
import { checkProxyPath, checkWhitelist, ProxyMessages, proxyTarget, splitProxied } from './proxy-target';

const refusal = (fn: () => unknown): [number, string] | 'passed' => {
  try {
    fn();
    return 'passed';
  } catch (err) {
    return [(err as StatusError).code, (err as StatusError).message];
  }
};
const OUTSIDE: [number, string] = [403, ProxyMessages.outside];
const INVALID: [number, string] = [400, ProxyMessages.invalidPath];

describe('splitProxied', () => {
  it('keeps the raw path after the prefix and the raw query', () => {
    expect(splitProxied('/api/datasources/proxy/uid/p/api/v1/query?query=up%7B%7D', 5)).toEqual({ path: 'api/v1/query', query: 'query=up%7B%7D' });
    expect(splitProxied('/api/datasources/proxy/7/api/v1/%2e%2e/x', 4)).toEqual({ path: 'api/v1/%2e%2e/x', query: '' });
    expect(splitProxied('/api/datasources/proxy/uid/p', 5)).toEqual({ path: '', query: '' });
    expect(splitProxied('/api/datasources/proxy/uid/p/', 5)).toEqual({ path: '', query: '' });
    expect(splitProxied('/api/datasources/proxy/uid/p//evil.example/x', 5)).toEqual({ path: '/evil.example/x', query: '' });
    expect(splitProxied('/API/Datasources/PROXY/uid/a%2Fb/rules/', 5)).toEqual({ path: 'rules/', query: '' });
  });

  it('refuses an absolute-form request target', () => {
    expect(refusal(() => splitProxied('http://evil/api/datasources/proxy/uid/p/x', 5))).toEqual(INVALID);
  });
});

describe('checkProxyPath', () => {
  it.each([
    ['api/v1/query', 'api/v1/query'],
    ['api/v1/label/job/values', 'api/v1/label/job/values'],
    ['api/v1/query%5Frange', 'api/v1/query_range'],
    ['rules/', 'rules/'],
    ['', ''],
    ['a/@evil.example/x', 'a/@evil.example/x'],
    ['cluster:index/_search', 'cluster:index/_search'],
    ['a..b/c...', 'a..b/c...'],
  ])('passes %j (matched as %j)', (raw, decoded) => {
    expect(checkProxyPath(raw)).toBe(decoded);
  });

  it.each([
    ['..'],
    ['../admin'],
    ['api/../../admin'],
    ['api/..'],
    ['./x'],
    ['%2e%2e/admin'],
    ['%2E%2E/admin'],
    ['.%2e/admin'],
    ['%252e%252e/admin'],
    ['%25252e%25252e/admin'],
    ['api%2f..%2fadmin'],
    ['..;/admin'],
    ['/evil.example/x'],
    ['http://evil.example/'],
    ['api//x'],
    ['%2fevil.example'],
    ['%2F%2Fevil.example'],
    ['..%5cadmin'],
    ['%5c%5cevil.example'],
    ['api%255c..%255cadmin'],
    ['a\\b'],
  ])('refuses %j: 403, it could leave the base path', (raw) => {
    expect(refusal(() => checkProxyPath(raw))).toEqual(OUTSIDE);
  });

  it.each([
    ['a%00b'],
    ['a%2500b'],
    ['a%0d%0aX-Injected:%201'],
    ['a%'],
    ['a%zz'],
    ['%c0%ae%c0%ae/admin'],
    ['%25c0%25ae'],
    ['a b'],
    ['a"b'],
    ['é'],
    ['%2525252525252e'],
  ])('refuses %j: 400, no path a client sends', (raw) => {
    expect(refusal(() => checkProxyPath(raw))).toEqual(INVALID);
  });

  it('refuses a query with bytes the upstream request line cannot carry', () => {
    expect(refusal(() => checkProxyPath('x', 'a=1 HTTP/1.1'))).toEqual(INVALID);
    expect(checkProxyPath('x', 'query=sum(rate(x[5m]))&a=%20')).toBe('x');
  });
});

describe('proxyTarget', () => {
  it('joins below the data source URL with exactly one slash', () => {
    expect(proxyTarget('http://prom:9090', 'api/v1/query', 'query=up')).toEqual({ protocol: 'http:', hostname: 'prom', port: 9090, host: 'prom:9090', path: '/api/v1/query?query=up' });
    expect(proxyTarget('http://prom:9090/', 'api/v1/query', '').path).toBe('/api/v1/query');
    expect(proxyTarget('https://h/base/', 'x/', '').path).toBe('/base/x/');
    expect(proxyTarget('https://h/base', 'x', '')).toMatchObject({ port: 443, path: '/base/x' });
    expect(proxyTarget('http://h/base', '', 'a=1').path).toBe('/base?a=1');
    expect(proxyTarget('http://h/base?ignored=1', 'x', '').path).toBe('/base/x');
    expect(proxyTarget('http://[::1]:8080/b', 'x', '')).toMatchObject({ hostname: '::1', host: '[::1]:8080', port: 8080 });
  });

  it('refuses data source URLs that are not http(s), without echoing their credentials', () => {
    for (const url of ['', 'ftp://h/x', 'file:///etc/passwd', 'javascript:alert(1)', 'prom:9090', 'not a url']) {
      expect(refusal(() => proxyTarget(url, 'x', ''))).toEqual([400, `Invalid data source URL: "${url}"`]);
    }
    expect(refusal(() => proxyTarget('gopher://user:s3cret@h/', 'x', ''))).toEqual([400, 'Invalid data source URL: "gopher://h/"']);
  });
});

describe('checkWhitelist', () => {
  const target = (url: string) => proxyTarget(url, '', '');
  it('passes everything without a list, and a listed host:port (the default port too) with one', () => {
    expect(refusal(() => checkWhitelist(target('http://evil:1'), []))).toBe('passed');
    expect(refusal(() => checkWhitelist(target('http://prom:9090/x'), ['prom:9090']))).toBe('passed');
    expect(refusal(() => checkWhitelist(target('http://PROM:9090'), ['prom:9090']))).toBe('passed');
    expect(refusal(() => checkWhitelist(target('http://prom'), ['prom:80']))).toBe('passed');
    expect(refusal(() => checkWhitelist(target('http://prom'), ['prom']))).toBe('passed');
  });

  it('refuses other hosts and other ports: 403 in the anchor words', () => {
    const refused: [number, string] = [403, ProxyMessages.whitelist];
    expect(refusal(() => checkWhitelist(target('http://prom:9091'), ['prom:9090']))).toEqual(refused);
    expect(refusal(() => checkWhitelist(target('http://evil'), ['prom:9090']))).toEqual(refused);
    expect(refusal(() => checkWhitelist(target('http://prom.evil:9090'), ['prom:9090']))).toEqual(refused);
  });
});
