import { parseUserAgent, type UserAgentInfo } from './user-agent';

const ua = (browser: string, browserVersion: string, os: string, osVersion: string, device: string): UserAgentInfo => ({
  browser,
  browserVersion,
  os,
  osVersion,
  device,
});

describe('parseUserAgent', () => {
  it.each<[string, string, UserAgentInfo]>([
    [
      'Chrome on macOS',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ua('Chrome', '120.0', 'Mac OS X', '10.15', 'Mac'),
    ],
    [
      'Chrome on Windows',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.6167.85 Safari/537.36',
      ua('Chrome', '121.0', 'Windows', '10', 'Other'),
    ],
    [
      'Chrome on Android (reduced UA)',
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
      ua('Chrome', '120.0', 'Android', '10', 'Generic Smartphone'),
    ],
    [
      'Chrome on Android with a model',
      'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Mobile Safari/537.36',
      ua('Chrome', '116.0', 'Android', '13', 'Pixel 7'),
    ],
    [
      'Chrome on iOS',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
      ua('Chrome', '120.0', 'iOS', '17.1', 'iPhone'),
    ],
    [
      'Firefox on Ubuntu',
      'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      ua('Firefox', '121.0', 'Ubuntu', '', 'Other'),
    ],
    [
      'Firefox on Linux',
      'Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0',
      ua('Firefox', '115.0', 'Linux', '', 'Other'),
    ],
    [
      'Safari on macOS',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2.1 Safari/605.1.15',
      ua('Safari', '17.2', 'Mac OS X', '10.15', 'Mac'),
    ],
    [
      'Safari on iPad',
      'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      ua('Safari', '16.6', 'iOS', '16.6', 'iPad'),
    ],
    [
      'Edge on Windows 7',
      'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36 Edg/109.0.1518.78',
      ua('Edge', '109.0', 'Windows', '7', 'Other'),
    ],
    [
      'Opera',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0',
      ua('Opera', '106.0', 'Windows', '10', 'Other'),
    ],
    [
      'Chrome OS',
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ua('Chrome', '120.0', 'Chrome OS', '', 'Other'),
    ],
    ['curl', 'curl/8.5.0', ua('curl', '8.5', 'Other', '', 'Other')],
    ['Wget', 'Wget/1.21.3', ua('Wget', '1.21', 'Other', '', 'Other')],
    ['kubectl', 'kubectl/v1.29.0 (linux/amd64) kubernetes/3f7a50f', ua('kubectl', '1.29', 'Linux', '', 'Other')],
    ['kubectl on a Mac', 'kubectl/v1.28.2 (darwin/arm64) kubernetes/89a4ea3', ua('kubectl', '1.28', 'Mac OS X', '', 'Other')],
    ['a client-go program', 'grafana-operator/v5.6.0 (linux/amd64) kubernetes/abcdef0', ua('grafana-operator', '5.6', 'Linux', '', 'Other')],
    ['Go-http-client', 'Go-http-client/1.1', ua('Go-http-client', '1.1', 'Other', '', 'Other')],
    ['Go-http-client HTTP/2', 'Go-http-client/2.0', ua('Go-http-client', '2.0', 'Other', '', 'Other')],
    ['node fetch (undici)', 'node', ua('node', '', 'Other', '', 'Other')],
    ['Node.js', 'Node.js/20.11.0', ua('node', '20.11', 'Other', '', 'Other')],
    ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', ua('node-fetch', '1.0', 'Other', '', 'Other')],
    ['axios', 'axios/1.6.2', ua('axios', '1.6', 'Other', '', 'Other')],
    ['python requests', 'python-requests/2.31.0', ua('Python Requests', '2.31', 'Other', '', 'Other')],
  ])('%s', (_name, header, expected) => {
    expect(parseUserAgent(header)).toEqual(expected);
  });

  it.each([undefined, '', '   ', 'SomethingElse', 'Mozilla/5.0', 'x'.repeat(100_000)])('unknown %#: Other', (header) => {
    expect(parseUserAgent(header)).toEqual(ua('Other', '', 'Other', '', 'Other'));
  });

  it('keeps the OS of an unknown browser', () => {
    expect(parseUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) SomeApp/1.0')).toEqual(
      ua('Other', '', 'Windows', '10', 'Other'),
    );
  });
});
