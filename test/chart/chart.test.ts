/**
 * The Helm chart cannot drift from the server: its lists of settings are generated from the configuration schema,
 * every setting is settable and typed in values.schema.json, unknown keys are refused, the chart's values are
 * values the server accepts, and every secret reaches the server from the Secret. Rendered with the real `helm`
 * when one is installed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import YAML from 'yaml';
import { envName, loadConfig } from '../../pkg/config';
import { secretSettings, settingKeys } from '../../pkg/config/config-schema';

const ROOT = path.resolve(__dirname, '..', '..');
const CHART = path.join(ROOT, 'charts', 'dashboard-apiserver');
type Values = Record<string, unknown>;
const values = YAML.parse(fs.readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as Values;
const schema = JSON.parse(fs.readFileSync(path.join(CHART, 'values.schema.json'), 'utf8')) as { properties: Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }> };
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** A section's map in the values: a dotted section ([auth.anonymous]) is nested under its parent. */
function sectionOf(v: Values, section: string): Values | undefined {
  return section.split('.').reduce<Values | undefined>((m, k) => m?.[k] as Values | undefined, v);
}

function schemaOf(section: string): Record<string, unknown> | undefined {
  const [parent, child] = section.split('.');
  const top = schema.properties[parent]?.properties;
  return child ? (top?.[child]?.properties as Record<string, unknown> | undefined) : top;
}

test('the chart\'s lists of settings are the ones hack/chart-settings.ts generates from the config schema', () => {
  const res = spawnSync(process.execPath, ['-r', path.join(ROOT, 'test', 'support', 'ts-register.js'), path.join(ROOT, 'hack', 'chart-settings.ts'), '--check'], { cwd: ROOT, encoding: 'utf8' });
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
});

test('every server setting is typed in values.schema.json, and values.yaml holds nothing else', () => {
  const known = new Set(settingKeys().map(([s, k]) => `${s}.${k}`));
  for (const [section, key] of settingKeys()) expect([section, key, schemaOf(section)?.[key] !== undefined]).toEqual([section, key, true]);
  const sections = new Set<string>(settingKeys().map(([s]) => s));
  for (const section of sections) {
    for (const [key, value] of Object.entries(sectionOf(values, section) ?? {})) {
      const nested = value !== null && typeof value === 'object' && !Array.isArray(value);
      // server.tls is the chart's own (the TLS Secret); auth.anonymous is a section of its own.
      if (`${section}.${key}` === 'server.tls' || (nested && sections.has(`${section}.${key}`))) continue;
      expect(known.has(`${section}.${key}`) ? `${section}.${key}` : `unknown ${section}.${key}`).toBe(`${section}.${key}`);
    }
  }
});

test('values.schema.json accepts the chart\'s values and its CI values, and refuses unknown keys', () => {
  const ok = (v: Values) => {
    const valid = validate(v);
    return valid ? 'valid' : JSON.stringify(validate.errors);
  };
  expect(ok(values)).toBe('valid');
  for (const file of fs.readdirSync(path.join(CHART, 'ci'))) {
    const ci = YAML.parse(fs.readFileSync(path.join(CHART, 'ci', file), 'utf8')) as Values;
    expect([file, ok({ ...values, ...ci })]).toEqual([file, 'valid']);
  }
  expect(ok({ ...values, auth: { anonymous: { enabled: true, org_role: 'Editor' } }, server: { edition: 'cloud', stack_id: '4242' }, metrics: { basic_auth_username: 'prom', basic_auth_password: 'x' } })).toBe('valid');
  // The block that used to be silently ignored, and typos.
  expect(ok({ ...values, bogus: { enabled: true } })).toContain('additionalProperties');
  expect(ok({ ...values, server: { stackid: '1' } })).toContain('additionalProperties');
  expect(ok({ ...values, auth: { anonymous: { enable: true } } })).toContain('additionalProperties');
  expect(ok({ ...values, metrics: { basic_auth_user: 'x' } })).toContain('additionalProperties');
  expect(ok({ ...values, auth: { anonymous: { org_role: 'Owner' } } })).not.toBe('valid');
});

test('the values the chart writes to config.ini are values the server accepts', () => {
  const flags: string[] = [];
  for (const [section, key] of settingKeys()) {
    const value = sectionOf(values, section)?.[key];
    if (value === null || value === undefined || value === '' || secretSettings.has(`${section}.${key}`)) continue;
    flags.push(`--${section}.${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  }
  expect(flags.length).toBeGreaterThan(25);
  const config = loadConfig({ argv: flags, env: {}, cwd: ROOT });
  expect(config.auth.login_cookie_name).toBe('svc_session');
  expect(config['auth.anonymous'].org_role).toBe('Viewer');
  expect(config.metrics.enabled).toBe(true);
});

test('every secret setting reaches the server from the Secret, as its environment variable', () => {
  const deployment = fs.readFileSync(path.join(CHART, 'templates', 'deployment.yaml'), 'utf8');
  const secret = fs.readFileSync(path.join(CHART, 'templates', 'secret.yaml'), 'utf8');
  for (const setting of ['database.url', ...secretSettings]) {
    const dot = setting.lastIndexOf('.');
    expect([setting, deployment.includes(`- name: ${envName(setting.slice(0, dot), setting.slice(dot + 1))}\n              valueFrom:\n                secretKeyRef:`)]).toEqual([setting, true]);
  }
  expect(secret).toContain('previous_secret_keys');
  expect(secret).toContain('basic_auth_password');
});

const helm = spawnSync('helm', ['version', '--short'], { encoding: 'utf8' }).status === 0;
const withHelm = helm ? test : test.skip;

withHelm('helm renders the chart: config.ini holds the settings (auth and auth.anonymous included), never a secret (skipped: no helm binary on this machine)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-chart-'));
  try {
    const extra = path.join(dir, 'values.yaml');
    fs.writeFileSync(
      extra,
      YAML.stringify({
        database: { url: 'postgres://u:db-secret@db:5432/x' },
        security: { admin_password: 'admin-secret' },
        auth: { login_cookie_name: 'my_cookie', anonymous: { enabled: true } },
        metrics: { basic_auth_username: 'prom', basic_auth_password: 'metrics-secret' },
        server: { edition: 'oss', stack_id: '42' },
        serviceMonitor: { enabled: true },
      }),
    );
    const res = spawnSync('helm', ['template', 'svc', CHART, '-f', extra], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    const docs = YAML.parseAllDocuments(res.stdout).map((d) => d.toJSON() as { kind: string; data?: Record<string, string> });
    const ini = docs.find((d) => d.kind === 'ConfigMap')!.data!['config.ini'];
    expect(ini).toContain('[auth]\nlogin_cookie_name = "my_cookie"');
    expect(ini).toContain('[auth.anonymous]\nenabled = true');
    expect(ini).toContain('stack_id = "42"');
    expect(ini).toContain('[metrics]');
    for (const s of ['db-secret', 'admin-secret', 'metrics-secret']) expect(ini).not.toContain(s);
    expect(docs.map((d) => d.kind)).toEqual(expect.arrayContaining(['Deployment', 'Service', 'Secret', 'PodDisruptionBudget', 'ServiceMonitor']));
    const bad = spawnSync('helm', ['template', 'svc', CHART, '-f', extra, '--set', 'auth.bogus=1'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
