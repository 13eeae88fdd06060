import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError, configSchema, defaultConfig, envName, loadConfig, usage } from './index';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}
function error(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('has every documented default, root_url derived and paths resolved against cwd', () => {
    const c = loadConfig({ cwd: '/srv/app' });
    expect(c.server).toEqual({
      protocol: 'http', http_addr: '', http_port: 3000, root_url: 'http://localhost:3000/', cert_file: '', cert_key: '',
      min_tls_version: 'TLS1.2', max_request_body_bytes: 10485760, shutdown_timeout_seconds: 30, heap_growth_percent: 50, edition: 'oss', stack_id: '',
    });
    expect(c.database).toEqual({ url: '', max_open_conn: 10, migration_lock_timeout_seconds: 60, prepared_statements: true });
    expect(c.registry).toEqual({ history_window_seconds: 3600, compaction_interval_seconds: 300, watch_poll_interval_ms: 100, answer_cache_mb: 32 });
    expect(c.security).toEqual({ admin_user: 'admin', admin_password: 'admin', admin_email: 'admin@localhost', secret_key: 'SW2YcwTIb9zpOOhoPsMm', previous_secret_keys: [], data_source_proxy_whitelist: [] });
    expect(c.paths).toEqual({ data: '/srv/app/data', provisioning: '/srv/app/conf/provisioning' });
    expect(c.feature_toggles).toEqual({ nestedFolders: true, enable: [] });
    expect(c.dashboards).toEqual({ min_refresh_interval: '5s', versions_to_keep: 20 });
    expect(c.dataproxy).toEqual({ timeout: 30, dialTimeout: 10, send_user_header: false, user_agent: '', row_limit: 1000000 });
    expect(c.users).toEqual({ auto_assign_org_role: 'Viewer' });
    expect(c.auth).toEqual({ login_cookie_name: 'svc_session', login_maximum_lifetime_duration: 30 * 86_400_000, login_maximum_inactive_lifetime_duration: 7 * 86_400_000, initial_service_account_token: '' });
    expect(c['auth.anonymous']).toEqual({ enabled: false, org_name: 'Main Org.', org_role: 'Viewer' });
    expect(c.log).toEqual({ level: 'info' });
  });

  it('defaultConfig() reads nothing from the process environment', () => {
    const before = process.env.SVC_SERVER_HTTP_PORT;
    process.env.SVC_SERVER_HTTP_PORT = '1234';
    try {
      expect(defaultConfig().server.http_port).toBe(3000);
      expect(defaultConfig().paths.data).toBe(path.resolve('data'));
    } finally {
      if (before === undefined) delete process.env.SVC_SERVER_HTTP_PORT;
      else process.env.SVC_SERVER_HTTP_PORT = before;
    }
  });

  it('configSchema alone fills missing sections', () => {
    expect(configSchema.parse({}).server.root_url).toBe('http://localhost:3000/');
  });
});

describe('precedence: default < file < env < flag', () => {
  const ini = file('custom.ini', '; comment\n[server]\nhttp_port = 1111\nhttp_addr = 10.0.0.1\nedition = enterprise\n[log]\nlevel = debug\n');

  it('each layer overrides the one before, key by key', () => {
    const c = loadConfig({
      argv: ['--config', ini, '--server.http_port=3333'],
      env: { SVC_SERVER_HTTP_PORT: '2222', SVC_SERVER_HTTP_ADDR: '127.0.0.1' },
    });
    expect(c.server.http_port).toBe(3333);
    expect(c.server.http_addr).toBe('127.0.0.1');
    expect(c.server.edition).toBe('enterprise');
    expect(c.log.level).toBe('debug');
    expect(c.server.protocol).toBe('http');
  });

  it('env beats file when no flag is given', () => {
    expect(loadConfig({ argv: [`--config=${ini}`], env: { SVC_SERVER_HTTP_PORT: '2222' } }).server.http_port).toBe(2222);
    expect(loadConfig({ argv: [`--config=${ini}`] }).server.http_port).toBe(1111);
  });

  it('finds the file through SVC_CONFIG_FILE, relative to cwd; --config wins over it', () => {
    const other = file('other.ini', '[server]\nhttp_port = 4444\n');
    expect(loadConfig({ env: { SVC_CONFIG_FILE: 'custom.ini' }, cwd: dir }).server.http_port).toBe(1111);
    expect(loadConfig({ argv: ['--config', other], env: { SVC_CONFIG_FILE: ini } }).server.http_port).toBe(4444);
  });

  it('accepts the space-separated flag form and the last repeated flag', () => {
    expect(loadConfig({ argv: ['--log.level', 'warn', '--log.level=error'] }).log.level).toBe('error');
  });

  it('reads a .json file', () => {
    const json = file('config.json', JSON.stringify({ server: { http_port: 5555 }, feature_toggles: { nestedFolders: false } }));
    const c = loadConfig({ argv: ['--config', json] });
    expect(c.server.http_port).toBe(5555);
    expect(c.feature_toggles.nestedFolders).toBe(false);
  });

  it('ignores --help, which the caller handles', () => {
    expect(loadConfig({ argv: ['--help', '-h'] }).server.http_port).toBe(3000);
  });
});

describe('environment names', () => {
  it('are SVC_<SECTION>_<KEY> upper-cased', () => {
    expect(envName('server', 'http_port')).toBe('SVC_SERVER_HTTP_PORT');
    expect(envName('feature_toggles', 'nestedFolders')).toBe('SVC_FEATURE_TOGGLES_NESTEDFOLDERS');
    const c = loadConfig({
      env: {
        SVC_DATABASE_URL: 'postgres://u:p@db/svc',
        SVC_PATHS_DATA: '/var/lib/svc',
        SVC_SECURITY_ADMIN_PASSWORD: 's3cret',
        SVC_FEATURE_TOGGLES_NESTEDFOLDERS: 'No',
        SVC_REGISTRY_HISTORY_WINDOW_SECONDS: '60',
        SVC_USERS_AUTO_ASSIGN_ORG_ROLE: 'Editor',
        SVC_UNKNOWN_THING: 'ignored',
        SVC_SERVER_NOPE: 'ignored',
      },
    });
    expect(c.database.url).toBe('postgres://u:p@db/svc');
    expect(c.paths.data).toBe('/var/lib/svc');
    expect(c.security.admin_password).toBe('s3cret');
    expect(c.feature_toggles.nestedFolders).toBe(false);
    expect(c.registry.history_window_seconds).toBe(60);
    expect(c.users.auto_assign_org_role).toBe('Editor');
  });

  it('usage() lists every setting with its flag, env name and default', () => {
    const text = usage();
    expect(text).toMatch(/--server\.http_port\s+SVC_SERVER_HTTP_PORT\s+"3000"/);
    expect(text).toMatch(/--feature_toggles\.enable\s+SVC_FEATURE_TOGGLES_ENABLE\s+""/);
    expect(text).toMatch(/--log\.level\s+SVC_LOG_LEVEL\s+"info"\s+one of debug, info, warn, error/);
    expect(text.split('\n').filter((l) => l.startsWith('  --'))).toHaveLength(117);
  });

  it('usage() shows durations as written, so a default copied into a setting means the same', () => {
    const text = usage();
    expect(text).toMatch(/--auth\.login_maximum_lifetime_duration\s+SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION\s+"30d"/);
    expect(text).toMatch(/--auth\.login_maximum_inactive_lifetime_duration\s+SVC_AUTH_LOGIN_MAXIMUM_INACTIVE_LIFETIME_DURATION\s+"7d"/);
    expect(text).not.toContain('2592000000');
    expect(text).not.toContain('604800000');
  });
});

describe('coercion', () => {
  it('booleans accept true/false/1/0/yes/no in any case', () => {
    const toggle = (v: string) => loadConfig({ argv: [`--feature_toggles.nestedFolders=${v}`] }).feature_toggles.nestedFolders;
    expect(['true', 'TRUE', '1', 'Yes'].map(toggle)).toEqual([true, true, true, true]);
    expect(['false', 'False', '0', 'NO'].map(toggle)).toEqual([false, false, false, false]);
  });

  it('INI true/false (parsed to JS booleans by ini) still coerce', () => {
    const f = file('bool.ini', '[feature_toggles]\nnestedFolders = false\n');
    expect(loadConfig({ argv: ['--config', f] }).feature_toggles.nestedFolders).toBe(false);
  });

  it('integers allow surrounding spaces', () => {
    expect(loadConfig({ env: { SVC_SERVER_HTTP_PORT: ' 8080 ' } }).server.http_port).toBe(8080);
  });
});

describe('feature_toggles.enable', () => {
  it('is a trimmed comma-separated list; unknown names are kept for the caller to report', () => {
    expect(loadConfig({ env: { SVC_FEATURE_TOGGLES_ENABLE: ' nestedFolders, someFutureToggle ,, ' } }).feature_toggles.enable).toEqual([
      'nestedFolders',
      'someFutureToggle',
    ]);
  });

  it('turns a toggle on unless the same source sets its key; a later source wins', () => {
    const off = file('off.ini', '[feature_toggles]\nnestedFolders = false\n');
    const both = file('both.ini', '[feature_toggles]\nenable = nestedFolders\nnestedFolders = false\n');
    const toggle = (o: Parameters<typeof loadConfig>[0]) => loadConfig(o).feature_toggles.nestedFolders;
    expect(toggle({ argv: ['--config', off], env: { SVC_FEATURE_TOGGLES_ENABLE: 'nestedFolders' } })).toBe(true);
    expect(toggle({ argv: ['--config', both] })).toBe(false);
    expect(toggle({ argv: ['--feature_toggles.nestedFolders=0'], env: { SVC_FEATURE_TOGGLES_ENABLE: 'nestedFolders' } })).toBe(false);
  });
});

describe('security.data_source_proxy_whitelist', () => {
  it("is the anchor's space-separated host:port list (commas too: the chart joins a list with them), lower-cased", () => {
    const list = (v: string) => loadConfig({ env: { SVC_SECURITY_DATA_SOURCE_PROXY_WHITELIST: v } }).security.data_source_proxy_whitelist;
    expect(list('prom:9090  Loki.example:3100')).toEqual(['prom:9090', 'loki.example:3100']);
    expect(list('prom:9090,10.0.0.1:80')).toEqual(['prom:9090', '10.0.0.1:80']);
    expect(list('')).toEqual([]);
  });
});

describe('root_url', () => {
  it('is derived from protocol and port when unset, kept when set', () => {
    expect(loadConfig({ argv: ['--server.http_port=8080'] }).server.root_url).toBe('http://localhost:8080/');
    const tls = ['--server.protocol=https', '--server.cert_file=c.pem', '--server.cert_key=k.pem'];
    expect(loadConfig({ argv: tls }).server.root_url).toBe('https://localhost:3000/');
    expect(loadConfig({ env: { SVC_SERVER_ROOT_URL: 'https://dash.example.com/grafana/' } }).server.root_url).toBe(
      'https://dash.example.com/grafana/',
    );
  });
});

describe('errors', () => {
  it('name the key, the value and its source', () => {
    expect(error(() => loadConfig({ env: { SVC_SERVER_HTTP_PORT: 'abc' } }))).toBe(
      'invalid value "abc" for server.http_port (from SVC_SERVER_HTTP_PORT): expected an integer',
    );
    expect(error(() => loadConfig({ argv: ['--server.http_port', '70000'] }))).toBe(
      'invalid value "70000" for server.http_port (from --server.http_port): expected an integer <= 65535',
    );
    const f = file('bad.ini', '[log]\nlevel = loud\n');
    expect(error(() => loadConfig({ argv: ['--config', f] }))).toBe(
      `invalid value "loud" for log.level (from ${f}): expected one of debug, info, warn, error`,
    );
    expect(error(() => loadConfig({ env: { SVC_FEATURE_TOGGLES_NESTEDFOLDERS: 'maybe' } }))).toBe(
      'invalid value "maybe" for feature_toggles.nestedFolders (from SVC_FEATURE_TOGGLES_NESTEDFOLDERS): expected a boolean (true/false/1/0/yes/no)',
    );
  });

  it('an empty value is a value, not the default', () => {
    expect(error(() => loadConfig({ env: { SVC_DATABASE_MAX_OPEN_CONN: '' } }))).toBe(
      'invalid value "" for database.max_open_conn (from SVC_DATABASE_MAX_OPEN_CONN): expected an integer',
    );
  });

  it('reject bad URLs and durations', () => {
    expect(error(() => loadConfig({ env: { SVC_DATABASE_URL: 'mysql://x' } }))).toMatch(/database\.url .*expected an empty value or a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(error(() => loadConfig({ argv: ['--dashboards.min_refresh_interval=soon'] }))).toMatch(/expected a duration/);
  });

  it('https takes a certificate and key together, or neither (self-signed)', () => {
    expect(error(() => loadConfig({ argv: ['--server.protocol=https', '--server.cert_key=k.pem'] }))).toBe(
      'missing value for server.cert_file: required with server.cert_key (set both, or neither for a self-signed certificate)',
    );
    expect(error(() => loadConfig({ env: { SVC_SERVER_PROTOCOL: 'https', SVC_SERVER_CERT_FILE: 'c.pem' } }))).toBe(
      'missing value for server.cert_key: required with server.cert_file (set both, or neither for a self-signed certificate)',
    );
    expect(loadConfig({ argv: ['--server.protocol=https'] }).server).toMatchObject({ protocol: 'https', cert_file: '', cert_key: '' });
    const both = loadConfig({ argv: ['--server.protocol=https', '--server.cert_file=c.pem', '--server.cert_key=/etc/k.pem'], cwd: '/srv' });
    expect(both.server).toMatchObject({ cert_file: '/srv/c.pem', cert_key: '/etc/k.pem' });
  });

  it('name unknown keys in a file, and settings outside a section', () => {
    const f = file('unknown.ini', 'stray = 1\n[server]\nhttp_port = 1\ndomain = x\n[smtp]\nenabled = true\ncert_file = x\n');
    expect(error(() => loadConfig({ argv: ['--config', f] }))).toBe(
      `unknown settings stray (outside any section), server.domain, smtp.cert_file (from ${f})`,
    );
  });

  it('name unknown flags, stray arguments and missing flag values', () => {
    expect(error(() => loadConfig({ argv: ['--server.domain=x', '--verbose', 'yes'] }))).toBe('unknown flags --server.domain, --verbose');
    expect(error(() => loadConfig({ argv: ['serve'] }))).toMatch(/^unexpected argument "serve"/);
    expect(error(() => loadConfig({ argv: ['--server.http_port'] }))).toBe('missing value for --server.http_port');
    expect(error(() => loadConfig({ argv: ['--config', '--log.level=debug'] }))).toBe('missing value for --config');
  });

  it('a named file that cannot be read or parsed', () => {
    const missing = path.join(dir, 'nope.ini');
    expect(error(() => loadConfig({ argv: ['--config', missing] }))).toMatch(
      new RegExp(`^cannot read config file ${missing} \\(from --config\\): ENOENT`),
    );
    expect(error(() => loadConfig({ env: { SVC_CONFIG_FILE: missing } }))).toMatch(/\(from SVC_CONFIG_FILE\)/);
    const bad = file('bad.json', '{ "server": ');
    expect(error(() => loadConfig({ argv: ['--config', bad] }))).toMatch(/^cannot parse config file/);
  });

  it('report every invalid value on one line', () => {
    const msg = error(() => loadConfig({ env: { SVC_SERVER_HTTP_PORT: 'x', SVC_LOG_LEVEL: 'y' } }));
    expect(msg).not.toContain('\n');
    expect(msg).toContain('server.http_port');
    expect(msg).toContain('log.level');
  });
});

describe('dotted sections and durations', () => {
  it('reads [auth.anonymous] from an INI file, the environment (dots as _) and flags', () => {
    const ini = file('anon.ini', '[auth.anonymous]\nenabled = true\norg_name = Other\n[auth]\nlogin_maximum_inactive_lifetime_duration = 2h\n');
    const fromFile = loadConfig({ argv: ['--config', ini] });
    expect(fromFile['auth.anonymous']).toEqual({ enabled: true, org_name: 'Other', org_role: 'Viewer' });
    expect(fromFile.auth.login_maximum_inactive_lifetime_duration).toBe(2 * 3_600_000);
    expect(envName('auth.anonymous', 'org_role')).toBe('SVC_AUTH_ANONYMOUS_ORG_ROLE');
    const fromEnv = loadConfig({ env: { SVC_AUTH_ANONYMOUS_ORG_ROLE: 'Editor' }, argv: ['--auth.anonymous.enabled=yes'] });
    expect(fromEnv['auth.anonymous']).toEqual({ enabled: true, org_name: 'Main Org.', org_role: 'Editor' });
  });

  it('reads durations in ms, s, m, h, d and w, a bare number as days, and refuses others', () => {
    const ms = (v: string) => loadConfig({ argv: [`--auth.login_maximum_lifetime_duration=${v}`] }).auth.login_maximum_lifetime_duration;
    expect([ms('500ms'), ms('30s'), ms('10m'), ms('1h'), ms('2d'), ms('1w'), ms('3')]).toEqual([500, 30_000, 600_000, 3_600_000, 172_800_000, 604_800_000, 259_200_000]);
    expect(error(() => ms('soon'))).toMatch(/^invalid value "soon" for auth.login_maximum_lifetime_duration \(from --auth.login_maximum_lifetime_duration\): expected a duration/);
    expect(error(() => ms('0s'))).toMatch(/expected a duration above zero/);
    expect(error(() => ms('0'))).toMatch(/expected a duration above zero/);
    expect(error(() => ms('-1d'))).toMatch(/expected a duration such as/);
  });

  it('refuse a session lifetime longer than a cookie lives (400 days), such as a millisecond count read as days', () => {
    const lifetime = (name: string, v: string) => loadConfig({ env: { [name]: v } }).auth;
    expect(lifetime('SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION', '400d').login_maximum_lifetime_duration).toBe(400 * 86_400_000);
    expect(error(() => lifetime('SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION', '2592000000'))).toBe(
      'invalid value "2592000000" for auth.login_maximum_lifetime_duration (from SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION): expected a duration of at most 400d',
    );
    expect(error(() => lifetime('SVC_AUTH_LOGIN_MAXIMUM_INACTIVE_LIFETIME_DURATION', '401d'))).toMatch(/inactive_lifetime_duration .*at most 400d$/);
    expect(error(() => lifetime('SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION', '99999999999999999999999w'))).toMatch(/at most 400d$/);
  });

  it('refuse timer settings a Node timer cannot wait (it would fire at once)', () => {
    expect(loadConfig({ argv: ['--registry.compaction_interval_seconds=2147483'] }).registry.compaction_interval_seconds).toBe(2147483);
    expect(error(() => loadConfig({ argv: ['--registry.compaction_interval_seconds=2147484'] }))).toMatch(/expected an integer <= 2147483$/);
    expect(error(() => loadConfig({ argv: ['--server.shutdown_timeout_seconds=9999999999'] }))).toMatch(/server\.shutdown_timeout_seconds .*<= 2147483$/);
    expect(error(() => loadConfig({ argv: ['--registry.watch_poll_interval_ms=2147483648'] }))).toMatch(/<= 2147483647$/);
    expect(error(() => loadConfig({ argv: ['--database.migration_lock_timeout_seconds=2147484'] }))).toMatch(/<= 2147483$/);
  });

  it('take a heap growth of 0 (V8 decides) to 1000 per cent, and refuse others', () => {
    expect(loadConfig({ env: { SVC_SERVER_HEAP_GROWTH_PERCENT: '0' } }).server.heap_growth_percent).toBe(0);
    expect(loadConfig({ argv: ['--server.heap_growth_percent=1000'] }).server.heap_growth_percent).toBe(1000);
    expect(error(() => loadConfig({ argv: ['--server.heap_growth_percent=-5'] }))).toMatch(/server\.heap_growth_percent .*expected an integer >= 0$/);
    expect(error(() => loadConfig({ argv: ['--server.heap_growth_percent=1001'] }))).toMatch(/expected an integer <= 1000$/);
  });

  it('read the license public key from the setting or a file, refusing what is no public key without printing it', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(loadConfig({ env: { SVC_ENTERPRISE_LICENSE_PUBLIC_KEY: pem } }).enterprise.license_public_key).toBe(pem.trim());
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-license-'));
    try {
      writeFileSync(path.join(dir, 'authority.pem'), pem);
      const fromFile = loadConfig({ cwd: dir, argv: ['--enterprise.license_public_key_path=authority.pem'] }).enterprise;
      expect(fromFile).toMatchObject({ license_public_key: pem.trim(), license_public_key_path: path.join(dir, 'authority.pem') });
      writeFileSync(path.join(dir, 'junk.pem'), 'not a key');
      expect(error(() => loadConfig({ cwd: dir, argv: ['--enterprise.license_public_key_path=junk.pem'] }))).toMatch(/junk\.pem holds no PEM public key/);
      expect(error(() => loadConfig({ cwd: dir, argv: ['--enterprise.license_public_key_path=missing.pem'] }))).toMatch(/cannot read enterprise\.license_public_key_path/);
      expect(error(() => loadConfig({ cwd: dir, argv: ['--enterprise.license_public_key_path=authority.pem', `--enterprise.license_public_key=${pem}`] }))).toMatch(/not both/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const secret = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refused = error(() => loadConfig({ env: { SVC_ENTERPRISE_LICENSE_PUBLIC_KEY: secret } }));
    expect(refused).toMatch(/^invalid value for enterprise\.license_public_key \(from SVC_ENTERPRISE_LICENSE_PUBLIC_KEY\): expected a PEM public key/);
    expect(refused).not.toContain('PRIVATE KEY');
    expect(error(() => loadConfig({ argv: ['--enterprise.license_server_url=ftp://x'] }))).toMatch(/enterprise\.license_server_url/);
  });
});
