import { createPostgresPlugin } from './postgres';
import { prometheusPlugin } from './prometheus/prometheus-plugin';
import { testDataPlugin } from './testdata/testdata-plugin';
import type { DataSourcePlugin } from './types';

export type * from './types';
export { basicAuthorization, credentialHeaders } from './credentials';

/**
 * Every data source plugin the server runs, one line each. Adding a plugin is its folder plus one line here. Built per
 * server (DataSourceInstances calls it): a plugin may hold state for its data sources (the PostgreSQL plugin's pools),
 * which two servers in one process must not share.
 */
export function createPlugins(): DataSourcePlugin[] {
  return [
    prometheusPlugin,
    createPostgresPlugin(),
    testDataPlugin,
  ];
}

/** The plugin of a stored data source type (its id or an alias), or undefined. */
export function pluginFor(type: string, plugins: readonly DataSourcePlugin[]): DataSourcePlugin | undefined {
  return plugins.find((p) => p.id === type || p.aliases.includes(type));
}
