export { type AuthSamlConfig, authSamlSchema, configSchema, DEFAULT_SECRET_KEY, envName, type Config, type SectionName } from './config-schema';
export { ConfigError, defaultConfig, loadConfig, usage, type LoadConfigOptions } from './load-config';
export { isSecretSetting, maskedSetting, REDACTED, REDACTED_URL_PASSWORD, settingString, settingsView } from './settings-view';
