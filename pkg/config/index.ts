export { configSchema, DEFAULT_SECRET_KEY, envName, type Config, type SectionName } from './config-schema';
export { ConfigError, defaultConfig, loadConfig, usage, type LoadConfigOptions } from './load-config';
export { REDACTED, settingsView } from './settings-view';
