import { createPostgresPlugin } from './postgres';
import { prometheusPlugin } from './prometheus/prometheus-plugin';
import { testDataPlugin } from './testdata/testdata-plugin';
import type { DataSourcePlugin } from './types';

export type * from './types';

/** Every data source plugin the server runs, one line each. Adding a plugin is its folder plus one line here. */
export const allPlugins: readonly DataSourcePlugin[] = [
  prometheusPlugin,
  createPostgresPlugin(),
  testDataPlugin,
];

/** The plugin of a stored data source type (its id or an alias), or undefined. */
export function pluginFor(type: string, plugins: readonly DataSourcePlugin[] = allPlugins): DataSourcePlugin | undefined {
  return plugins.find((p) => p.id === type || p.aliases.includes(type));
}
