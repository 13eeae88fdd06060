import { basicAuthorization, credentialHeaders } from './credentials';
import type { DataSourceInstance } from './types';

const ds = (over: Partial<DataSourceInstance> = {}) => ({ basicAuth: false, basicAuthUser: '', user: '', jsonData: {}, secure: {}, ...over });

describe('credentialHeaders', () => {
  it('stops at the first missing httpHeaderNameN and skips names or values that are not headers', () => {
    const out = credentialHeaders(ds({
      jsonData: { httpHeaderName1: 'A', httpHeaderName2: 'bad name', httpHeaderName3: 'C', httpHeaderName5: 'E' },
      secure: { httpHeaderValue1: '1', httpHeaderValue2: '2', httpHeaderValue3: 'x\r\nInjected: 1', httpHeaderValue5: '5' },
    }));
    expect(out).toEqual({ a: '1' });
    expect(credentialHeaders(ds())).toEqual({});
  });

  it('uses basic auth with basicAuthUser, else the old-style user and password', () => {
    expect(credentialHeaders(ds({ basicAuth: true, basicAuthUser: 'b', user: 'u', secure: { basicAuthPassword: 'bp', password: 'p' } })))
      .toEqual({ authorization: basicAuthorization('b', 'bp') });
    expect(credentialHeaders(ds({ user: 'u', secure: { password: 'p' } }))).toEqual({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
  });
});
