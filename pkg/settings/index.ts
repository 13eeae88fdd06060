export { type SettingSections, SETTINGS_NAMESPACE, StoredSettings } from './stored-settings';
