import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ini from 'ini';
import { z } from 'zod';
import { configSchema, envName, secretSettings, sectionSchemas, settingKeys, type Config } from './config-schema';
import { settingString } from './settings-view';

/**
 * A configuration that cannot be loaded. The message is one line naming the setting and where its value came
 * from, fit to print before exiting.
 *
 * @example
 *   invalid value "abc" for server.http_port (from SVC_SERVER_HTTP_PORT): expected an integer
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A raw string value and where it came from: a file path, an environment variable or a flag. */
interface RawValue {
  value: string;
  source: string;
}

/** Raw values keyed by `section.key`; a later layer overwrites an earlier one. */
type RawValues = Map<string, RawValue>;

const knownKeys = new Set(settingKeys().map(([s, k]) => `${s}.${k}`));
const knownSections = new Set<string>(Object.keys(sectionSchemas));

function isSection(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface LoadConfigOptions {
  /** Command-line arguments without node and the script, i.e. `process.argv.slice(2)`. Default `[]`. */
  argv?: string[];
  /** The environment to read `SVC_*` from; `cmd/` passes `process.env`. Default `{}`: nothing is read implicitly. */
  env?: Record<string, string | undefined>;
  /** Directory that a relative config file and relative `paths.*` resolve against. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * Builds the one configuration object from defaults ← config file ← environment ← flags (later wins).
 * The config file is `--config <file>`, else `$SVC_CONFIG_FILE`, else none; it is INI (Grafana's custom.ini
 * layout) or, when named `*.json`, `{ "<section>": { "<key>": value } }`. `--help`/`-h` are ignored here: the
 * caller prints `usage()`. In `feature_toggles`, `enable = a,b` turns the named toggles on (see applyEnableList).
 * Paths (`paths.*`, `server.cert_file`, `server.cert_key`, the `auth.saml` `*_path`) are resolved against `cwd`.
 *
 * @throws ConfigError on an unknown setting or flag, an unreadable named file, or a value that does not validate.
 * @example
 *   const config = loadConfig({ argv: ['--server.http_port=8080'], env: process.env });
 *   config.server.http_port; // 8080
 *   config.server.root_url; // 'http://localhost:8080/' unless set
 */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? {};
  const cwd = opts.cwd ?? process.cwd();
  const args = parseArgv(opts.argv ?? []);
  const file = args.configFile ?? (env.SVC_CONFIG_FILE ? { path: env.SVC_CONFIG_FILE, source: 'SVC_CONFIG_FILE' } : undefined);
  const layers: RawValues[] = [
    file ? readConfigFile(path.resolve(cwd, file.path), file.source) : new Map(),
    envLayer(env),
    new Map(args.flags.map(([name, value]) => [name, { value, source: `--${name}` }])),
  ];
  const raw: RawValues = new Map();
  for (const layer of layers) {
    applyEnableList(layer);
    for (const [name, value] of layer) raw.set(name, value);
  }

  const parsed = configSchema.safeParse(toInput(raw));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => describeIssue(i, raw)).join('; '));
  const config = parsed.data;
  config.paths = { data: path.resolve(cwd, config.paths.data), provisioning: path.resolve(cwd, config.paths.provisioning) };
  for (const key of ['cert_file', 'cert_key'] as const) if (config.server[key] !== '') config.server[key] = path.resolve(cwd, config.server[key]);
  if (config.enterprise.license_public_key_path !== '') {
    const file = path.resolve(cwd, config.enterprise.license_public_key_path);
    config.enterprise = { ...config.enterprise, license_public_key_path: file, license_public_key: readPublicKeyFile(file, raw.get('enterprise.license_public_key_path')!.source) };
  }
  for (const key of ['certificate_path', 'private_key_path', 'idp_metadata_path'] as const) {
    if (config['auth.saml'][key] !== '') config['auth.saml'][key] = path.resolve(cwd, config['auth.saml'][key]);
  }
  return config;
}

/** The PEM public key in `file`, checked as the setting itself is (a typo stops the start, not every license). */
function readPublicKeyFile(file: string, source: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`cannot read enterprise.license_public_key_path ${file} (from ${source}): ${(err as Error).message}`);
  }
  const parsed = sectionSchemas.enterprise.shape.license_public_key.safeParse(pem);
  if (!parsed.success) throw new ConfigError(`invalid value for enterprise.license_public_key_path (from ${source}): ${file} holds no PEM public key (ECDSA P-256 or RSA)`);
  return pem;
}

/**
 * The configuration with nothing set: every default, paths resolved against `process.cwd()`.
 *
 * @example
 *   defaultConfig().server.http_port; // 3000
 */
export function defaultConfig(): Config {
  return loadConfig({ argv: [], env: {} });
}

/**
 * The `--help` text: every setting with its flag, environment variable and default.
 *
 * @example
 *   if (argv.includes('--help')) { process.stdout.write(usage()); process.exit(0); }
 */
export function usage(): string {
  const rows = settingKeys().map(([section, key]) => {
    const field = sectionSchemas[section].shape[key as never] as z.ZodType;
    const inner = field instanceof z.ZodDefault ? field.unwrap() : field;
    const notes = [inner instanceof z.ZodEnum ? `one of ${inner.options.join(', ')}` : '', field.description ?? ''];
    const def = settingString(`${section}.${key}`, (sectionSchemas[section].parse({}) as Record<string, unknown>)[key]);
    return [`--${section}.${key}`, envName(section, key), JSON.stringify(def), notes.filter(Boolean).join('; ')];
  });
  const width = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  const table = rows.map((r) => `  ${r.map((cell, c) => (c < 3 ? cell.padEnd(width[c]!) : cell)).join('  ')}`.trimEnd());
  return [
    'Usage: dashboard-apiserver [--config <file>] [--<section>.<key>=<value> | --<section>.<key> <value>]...',
    '       dashboard-apiserver --new-service-account-token   (prints a new token, e.g. for auth.initial_service_account_token)',
    '',
    'Each setting is taken from, later winning: its default, the config file (--config <file>, else',
    '$SVC_CONFIG_FILE; INI sections like [server], or .json), the environment, the flags.',
    '',
    `  ${'flag'.padEnd(width[0]!)}  ${'environment'.padEnd(width[1]!)}  ${'default'.padEnd(width[2]!)}  notes`,
    ...table,
    '',
  ].join('\n');
}

interface ParsedArgs {
  configFile?: { path: string; source: string };
  flags: Array<[string, string]>;
}

function parseArgv(argv: string[]): ParsedArgs {
  const out: ParsedArgs = { flags: [] };
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') continue;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}" (settings are --<section>.<key>=<value>)`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    let value = eq < 0 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new ConfigError(`missing value for --${name}`);
      i++;
    }
    if (name === 'config') out.configFile = { path: value, source: '--config' };
    else if (knownKeys.has(name)) out.flags.push([name, value]);
    else unknown.push(`--${name}`);
  }
  if (unknown.length > 0) throw new ConfigError(`unknown flag${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  return out;
}

/** Reads an INI or JSON file. Every key must be known: a typo is an error, not a silent default. */
function readConfigFile(file: string, namedBy: string): RawValues {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file} (from ${namedBy}): ${(err as Error).message}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = file.endsWith('.json') ? JSON.parse(text) : ini.parse(text);
  } catch (err) {
    throw new ConfigError(`cannot parse config file ${file}: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ConfigError(`config file ${file} must hold sections`);
  const raw: RawValues = new Map();
  const unknown: string[] = [];
  const readSection = (section: string, entries: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(entries)) {
      const name = `${section}.${key}`;
      // ini nests `[auth.anonymous]` as auth → anonymous; JSON may write it either way.
      if (knownSections.has(name) && isSection(value)) readSection(name, value);
      else if (!knownKeys.has(name)) unknown.push(name);
      else if (value !== null && typeof value === 'object') throw new ConfigError(`invalid value for ${name} (from ${file}): expected a single value`);
      // ini turns true/false/null into JS values; String() gives back what was written.
      else raw.set(name, { value: String(value), source: file });
    }
  };
  for (const [section, entries] of Object.entries(doc)) {
    if (!isSection(entries)) unknown.push(`${section} (outside any section)`);
    else readSection(section, entries);
  }
  if (unknown.length > 0) throw new ConfigError(`unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (from ${file})`);
  return raw;
}

/** Only the known names are looked up, so an unrelated SVC_* variable is ignored. */
function envLayer(env: Record<string, string | undefined>): RawValues {
  const raw: RawValues = new Map();
  for (const [section, key] of settingKeys()) {
    const name = envName(section, key);
    const value = env[name];
    if (value !== undefined) raw.set(`${section}.${key}`, { value, source: name });
  }
  return raw;
}

/**
 * Grafana's rule within one source: `enable = a,b` turns toggles on unless that source sets the toggle's own key.
 * Across sources the later one wins as for any setting, so `SVC_FEATURE_TOGGLES_ENABLE` overrides the file's key.
 */
function applyEnableList(raw: RawValues): void {
  const enable = raw.get('feature_toggles.enable');
  if (!enable) return;
  for (const name of enable.value.split(',').map((t) => t.trim())) {
    const key = `feature_toggles.${name}`;
    if (name !== 'enable' && knownKeys.has(key) && !raw.has(key)) raw.set(key, { value: 'true', source: enable.source });
  }
}

function toInput(raw: RawValues): Record<string, Record<string, string>> {
  const input: Record<string, Record<string, string>> = {};
  for (const [name, { value }] of raw) {
    // Section names may hold dots (`auth.anonymous`); keys never do.
    const dot = name.lastIndexOf('.');
    const [section, key] = [name.slice(0, dot), name.slice(dot + 1)];
    (input[section] ??= {})[key] = value;
  }
  return input;
}

function describeIssue(issue: z.core.$ZodIssue, raw: RawValues): string {
  const name = issue.path.join('.');
  const given = raw.get(name);
  // A secret's value is never printed: the message ends up in logs.
  const shown = secretSettings.has(name) ? '' : `${JSON.stringify(given?.value)} `;
  return given
    ? `invalid value ${shown}for ${name} (from ${given.source}): ${issue.message}`
    : `missing value for ${name}: ${issue.message}`;
}
