import { urlAcceptable } from './datasource-url';

describe('urlAcceptable', () => {
  it.each([
    ['prometheus', 'http://prometheus:9090', true],
    ['prometheus', 'prometheus:9090', true],
    ['prometheus', '', false],
    ['svc-testdata-datasource', '', true],
    ['loki', 'http://exa mple.com', false],
    ['loki', 'http://[::1', false],
    ['mysql', 'db.internal:3306', true],
  ])('%s %j → %s', (type, url, ok) => {
    expect(urlAcceptable(type, url)).toBe(ok);
  });
});
