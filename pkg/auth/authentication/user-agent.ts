/**
 * The browser, OS and device of an auth-token record (spec §2.14), read from the User-Agent it was created with.
 *
 * A small parser of our own rather than a library: ua-parser-js 2.x is AGPL, and 1.x (MIT) spells names its own
 * way (`Mac OS`, full versions, no device for desktops), whereas the anchor (uap-go, the ua-parser regex project)
 * says `Mac OS X`, `Other` and `major.minor`; no dependency also means no lockfile change. The records only need a recognisable label per device, so the handful of rules below
 * (current browsers and the command-line clients that talk to an API server) speaks the anchor's vocabulary;
 * anything unrecognised is `Other`, as there.
 */

/** What an auth-token record shows about the client. Versions are `major.minor` (or `major`), '' when unknown. */
export interface UserAgentInfo {
  browser: string;
  browserVersion: string;
  os: string;
  osVersion: string;
  device: string;
}

const OTHER = 'Other';
/** A User-Agent longer than this is cut before matching; real ones are a few hundred characters. */
const MAX_LENGTH = 1024;

function version(major: string | undefined, minor: string | undefined): string {
  if (!major) return '';
  return minor ? `${major}.${minor}` : major;
}

type Rule = [pattern: RegExp, family: string];

/** Order matters: Edge and Opera also say Chrome and Safari; Chrome also says Safari. */
const BROWSERS: Rule[] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)(?:\.(\d+))?/, 'Edge'],
  [/\bOPR\/(\d+)(?:\.(\d+))?/, 'Opera'],
  [/\b(?:Firefox|FxiOS)\/(\d+)(?:\.(\d+))?/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)(?:\.(\d+))?/, 'HeadlessChrome'],
  [/\b(?:Chrome|CriOS)\/(\d+)(?:\.(\d+))?/, 'Chrome'],
  [/\bVersion\/(\d+)(?:\.(\d+))?(?:\.\d+)*(?: Mobile\/\w+)? Safari\//, 'Safari'],
  [/^curl\/(\d+)(?:\.(\d+))?/, 'curl'],
  [/^Wget\/(\d+)(?:\.(\d+))?/, 'Wget'],
  [/^kubectl\/v?(\d+)(?:\.(\d+))?/, 'kubectl'],
  [/^Go-http-client\/(\d+)(?:\.(\d+))?/, 'Go-http-client'],
  [/^python-requests\/(\d+)(?:\.(\d+))?/, 'Python Requests'],
  [/^node-fetch(?:\/(\d+)(?:\.(\d+))?)?/, 'node-fetch'],
  [/^axios\/(\d+)(?:\.(\d+))?/, 'axios'],
  // undici (Node's fetch) sends exactly "node"; older Node agents "Node.js/20.1.0".
  [/^(?:node|Node\.js)(?:\/v?(\d+)(?:\.(\d+))?[\w.]*)?$/, 'node'],
];

/** Windows NT kernel versions as the marketing names the anchor shows. */
const WINDOWS_NT: Record<string, string> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7', '6.0': 'Vista' };

/** Go clients built on client-go say `<name>/v1.29.0 (linux/amd64) kubernetes/3f7a50f`. */
const CLIENT_GO = /^([A-Za-z][\w.-]*)\/v(\d+)\.(\d+)\S* \((linux|darwin|windows)\/\w+\) kubernetes\/\w+/;
const GO_OS: Record<string, string> = { linux: 'Linux', darwin: 'Mac OS X', windows: 'Windows' };

function parseOs(ua: string): { os: string; osVersion: string } {
  let m = /Windows NT (\d+\.\d+)/.exec(ua);
  if (m) return { os: 'Windows', osVersion: WINDOWS_NT[m[1] as string] ?? (m[1] as string) };
  m = /(?:iPhone|CPU) OS (\d+)(?:_(\d+))?/.exec(ua);
  if (m) return { os: 'iOS', osVersion: version(m[1], m[2]) };
  m = /Mac OS X (\d+)(?:[_.](\d+))?/.exec(ua);
  if (m) return { os: 'Mac OS X', osVersion: version(m[1], m[2]) };
  m = /Android (\d+)(?:\.(\d+))?/.exec(ua);
  if (m) return { os: 'Android', osVersion: version(m[1], m[2]) };
  if (/\bCrOS\b/.test(ua)) return { os: 'Chrome OS', osVersion: '' };
  if (/\bUbuntu\b/.test(ua)) return { os: 'Ubuntu', osVersion: '' };
  if (/\bLinux\b/.test(ua)) return { os: 'Linux', osVersion: '' };
  m = /\((linux|darwin|windows)\/\w+\)/.exec(ua);
  if (m) return { os: GO_OS[m[1] as string] as string, osVersion: '' };
  return { os: OTHER, osVersion: '' };
}

function parseDevice(ua: string): string {
  if (/\biPhone\b/.test(ua)) return 'iPhone';
  if (/\biPad\b/.test(ua)) return 'iPad';
  if (/\bMacintosh\b/.test(ua)) return 'Mac';
  const m = /Android [\d.]+; ([^;)]+?)(?: Build\/[^;)]*)?\)/.exec(ua);
  if (m) {
    const model = (m[1] as string).trim();
    // Chrome's reduced User-Agent hides the model behind "K".
    return model === 'K' ? 'Generic Smartphone' : model;
  }
  return OTHER;
}

/**
 * Reads browser, OS and device from a User-Agent header; anything unrecognised is `Other` with an empty version.
 *
 * @example
 *   parseUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36');
 *   // { browser: 'Chrome', browserVersion: '120.0', os: 'Mac OS X', osVersion: '10.15', device: 'Mac' }
 *   parseUserAgent('kubectl/v1.29.0 (linux/amd64) kubernetes/3f7a50f');
 *   // { browser: 'kubectl', browserVersion: '1.29', os: 'Linux', osVersion: '', device: 'Other' }
 *   parseUserAgent(undefined); // all 'Other', versions ''
 */
export function parseUserAgent(ua: string | undefined): UserAgentInfo {
  const s = (ua ?? '').trim().slice(0, MAX_LENGTH);
  let browser = OTHER;
  let browserVersion = '';
  for (const [pattern, family] of BROWSERS) {
    const m = pattern.exec(s);
    if (m) {
      browser = family;
      browserVersion = version(m[1], m[2]);
      break;
    }
  }
  if (browser === OTHER) {
    const m = CLIENT_GO.exec(s);
    if (m) {
      browser = m[1] as string;
      browserVersion = version(m[2], m[3]);
    }
  }
  return { browser, browserVersion, ...parseOs(s), device: parseDevice(s) };
}
