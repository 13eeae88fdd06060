import { downstreamResponseHeaders, keptCookies, type RequestHeaderContext, upstreamRequestHeaders } from './proxy-headers';

const ds = (over: Partial<RequestHeaderContext['ds']> = {}): RequestHeaderContext['ds'] => ({ basicAuth: false, basicAuthUser: '', user: '', jsonData: {}, secure: {}, ...over });
const ctx = (over: Partial<RequestHeaderContext> = {}): RequestHeaderContext => ({
  ds: ds(),
  clientIp: '10.1.2.3',
  host: 'svc.example:3000',
  proto: 'http',
  userAgent: 'Svc/1.2.3',
  sessionCookie: 'svc_session',
  ...over,
});
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('upstreamRequestHeaders', () => {
  const caller = {
    host: 'svc.example:3000',
    authorization: 'Bearer svcsa_caller_token',
    cookie: 'svc_session=s3ss10n; theme=dark; grafana_session=x',
    connection: 'keep-alive, X-Private',
    'x-private': 'hop',
    'keep-alive': 'timeout=5',
    'transfer-encoding': 'chunked',
    te: 'trailers',
    upgrade: 'websocket',
    'proxy-authorization': 'Basic cHJveHk6cHc=',
    expect: '100-continue',
    origin: 'https://svc.example',
    referer: 'https://svc.example/d/abc',
    'x-forwarded-host': 'forged.example',
    'x-forwarded-port': '1',
    'x-forwarded-proto': 'gopher',
    'x-forwarded-for': '192.0.2.1',
    'x-svc-user': 'forged-admin',
    'user-agent': 'curl/8',
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': '11',
  };

  it('drops what authenticated the caller and every hop-by-hop header; forwards the rest', () => {
    const out = upstreamRequestHeaders(caller, ctx());
    expect(out).toEqual({
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '11',
      'x-forwarded-for': '192.0.2.1, 10.1.2.3',
      'x-forwarded-host': 'svc.example:3000',
      'x-forwarded-proto': 'http',
      'x-svc-referer': 'https://svc.example/d/abc',
      'user-agent': 'Svc/1.2.3',
    });
  });

  it("adds the data source's basic auth, else its user and password, then its custom headers", () => {
    expect(upstreamRequestHeaders(caller, ctx({ ds: ds({ basicAuth: true, basicAuthUser: 'bob', secure: { basicAuthPassword: 'pw' } }) })).authorization).toBe(basic('bob', 'pw'));
    expect(upstreamRequestHeaders(caller, ctx({ ds: ds({ user: 'influx', secure: { password: 'ipw' } }) })).authorization).toBe(basic('influx', 'ipw'));
    const custom = ds({ jsonData: { httpHeaderName1: 'X-Scope-OrgID', httpHeaderName2: 'Authorization' }, secure: { httpHeaderValue1: 'tenant', httpHeaderValue2: 'Bearer ds-token' } });
    const out = upstreamRequestHeaders(caller, ctx({ ds: custom }));
    expect([out['x-scope-orgid'], out.authorization]).toEqual(['tenant', 'Bearer ds-token']);
  });

  it("keeps only keepCookies' cookies, never the session cookie", () => {
    const keep = ds({ jsonData: { keepCookies: ['theme', 'svc_session', 7] } });
    expect(upstreamRequestHeaders(caller, ctx({ ds: keep })).cookie).toBe('theme=dark');
    expect(upstreamRequestHeaders(caller, ctx({ ds: ds({ jsonData: { keepCookies: 'theme' } }) })).cookie).toBeUndefined();
  });

  it('sets X-Svc-User only when asked, and X-DS-Authorization becomes Authorization', () => {
    expect(upstreamRequestHeaders(caller, ctx({ userHeader: 'alice' }))['x-svc-user']).toBe('alice');
    const out = upstreamRequestHeaders({ ...caller, 'x-ds-authorization': 'Bearer for-upstream' }, ctx({ ds: ds({ basicAuth: true, basicAuthUser: 'b' }) }));
    expect(out.authorization).toBe('Bearer for-upstream');
    expect(out['x-ds-authorization']).toBeUndefined();
  });
});

describe('keptCookies', () => {
  it('keeps the named cookies in order', () => {
    expect(keptCookies('a=1; b=2;c=3', ['c', 'a'], 's')).toBe('a=1; c=3');
    expect(keptCookies('a=1', [], 's')).toBeUndefined();
    expect(keptCookies(undefined, ['a'], 's')).toBeUndefined();
    expect(keptCookies('s=1', ['s'], 's')).toBeUndefined();
  });
});

describe('downstreamResponseHeaders', () => {
  it('drops Set-Cookie and hop-by-hop headers and sandboxes the answer', () => {
    const out = downstreamResponseHeaders({
      'content-type': 'text/html',
      'set-cookie': ['a=1', 'svc_session=evil'],
      connection: 'close, x-hop',
      'x-hop': '1',
      'transfer-encoding': 'chunked',
      'content-security-policy': "default-src *",
      'x-upstream': 'yes',
    });
    expect(out).toEqual({ 'content-type': 'text/html', 'x-upstream': 'yes', 'content-security-policy': 'sandbox' });
  });
});
