import { dataSourceKind } from '../../apis';
import type { DataSourceSpec } from '../../apis/datasource.svc.app/v1beta1/datasource';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import { Labels, type Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { createPlugins, pluginFor } from './index';
import type { DataSourceInstance, DataSourcePlugin } from './types';

/**
 * From a data source reference of a request (uid, or the deprecated numeric id) to what a plugin runs with: the
 * stored DataSource of the caller's organization, checked for `datasources:query`, as a {@link DataSourceInstance}
 * with its secrets decrypted, and its plugin. One {@link DataSourceInstances} per server (pkg/server/app.ts makes it,
 * the routes get it as `AdapterDeps.dataSources`): its cache keeps decrypted instances by namespace/uid and tells the
 * plugin (`dispose`) when the data source it holds pools or clients for changed or went.
 */

const KIND = dataSourceKind;

export type DataSourceObject = Resource<DataSourceSpec>;

/** The anchor's texts of the data source routes (anchor-breadth §1.11, §1.12, §3.2). */
export const DataSourceRouteMessages = {
  uidInvalid: 'UID is invalid',
  notFound: 'Data source not found',
  /** Health, resources and the proxy. */
  accessDenied: 'Access denied to datasource',
  /** POST /api/ds/query spells it in two words. */
  queryAccessDenied: 'Access denied to data source',
} as const;

/** The action every data source route needs on the data source (anchor-breadth §1.10). */
export const QUERY_ACTION = 'datasources:query';

/** The anchor's short uids: letters, digits, `-` and `_`, at most 40 (its IsValidShortUID and length check). */
const UID = /^[A-Za-z0-9_-]{1,40}$/;

/** Whether `uid` is a uid the legacy routes accept (else they answer 400 "UID is invalid"). */
export const isValidDataSourceUid = (uid: string): boolean => UID.test(uid);

/** A data source named by a request: its uid, or (deprecated) its numeric id. */
export type DataSourceRef = { uid: string } | { id: number };

/** A data source the caller may query. `plugin` is undefined when no plugin serves its type (each route answers that its way). */
export interface ResolvedDataSource {
  object: DataSourceObject;
  instance: DataSourceInstance;
  plugin: DataSourcePlugin | undefined;
}

export interface ResolveOptions {
  /** The 403 text: {@link DataSourceRouteMessages.accessDenied} unless given. */
  deniedMessage?: string;
}

interface CacheEntry {
  resourceVersion: number;
  type: string;
  instance: Promise<DataSourceInstance>;
}

const notFound = () => new StatusError(404, 'NotFound', DataSourceRouteMessages.notFound);

/**
 * The data sources the routes run plugins on, with a per-process cache of their decrypted instances.
 *
 * Cache contract: an instance is built once per (namespace, uid, resourceVersion). When a newer resourceVersion is
 * seen (or the data source is found gone, or {@link forget} is called), the plugin's `dispose(namespace, uid)` is
 * awaited before the new instance is handed out; requests already running with the old instance keep it, so a
 * plugin that pools per data source should key its pools by `instance.resourceVersion` too.
 *
 * @example
 *   const { instance, plugin } = await deps.dataSources.resolve(requestContext(req, deps.registry), { uid: 'prom' });
 *   if (!plugin) throw new StatusError(404, 'NotFound', 'Plugin not found');
 *   const health = await plugin.checkHealth(instance, signal);
 */
export class DataSourceInstances {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly registry: Registry;
  private readonly plugins: readonly DataSourcePlugin[];
  private readonly log?: Logger;

  constructor(opts: { registry: Registry; plugins?: readonly DataSourcePlugin[]; log?: Logger }) {
    this.registry = opts.registry;
    this.plugins = opts.plugins ?? createPlugins();
    this.log = opts.log;
  }

  /** The plugin of a data source type (its id or an alias), among this server's plugins. */
  pluginFor(type: string): DataSourcePlugin | undefined {
    return pluginFor(type, this.plugins);
  }

  /**
   * The data source `ref` names in the caller's organization (`ctx.namespace`), checked for `datasources:query`:
   * 400 "UID is invalid" for a malformed uid, 404 "Data source not found" when absent (another organization's
   * included: it is never visible), 403 (`deniedMessage`) when the caller may not query it. A context without
   * `access` (the server's own calls) is not checked.
   */
  async resolve(ctx: RequestContext, ref: DataSourceRef, opts: ResolveOptions = {}): Promise<ResolvedDataSource> {
    const object = await this.find(ctx.namespace, ref);
    if (ctx.access && !(await ctx.access.can(QUERY_ACTION, `datasources:uid:${object.metadata.name}`))) {
      throw new StatusError(403, 'Forbidden', opts.deniedMessage ?? DataSourceRouteMessages.accessDenied);
    }
    return { object, instance: await this.instanceOf(object), plugin: this.pluginFor(object.spec.type) };
  }

  /** The stored data source `ref` names in `namespace` (no access check), else 400 / 404 as {@link resolve}. */
  async find(namespace: string, ref: DataSourceRef): Promise<DataSourceObject> {
    // No caller: the lookup itself reveals nothing, and the query permission is checked by resolve (the anchor
    // answers 404 before 403).
    const ctx: RequestContext = { requester: { identity: 'system:data-source-routes', login: '' }, namespace, fieldManager: 'data-source-routes' };
    if ('uid' in ref) {
      if (!isValidDataSourceUid(ref.uid)) throw StatusError.badRequest(DataSourceRouteMessages.uidInvalid);
      try {
        return await this.registry.get(ctx, KIND, ref.uid);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) {
          await this.forget(namespace, ref.uid);
          throw notFound();
        }
        throw err;
      }
    }
    if (!Number.isSafeInteger(ref.id) || ref.id <= 0) throw notFound();
    const found = await this.registry.list(ctx, KIND, { labelSelector: `${Labels.deprecatedInternalID}=${ref.id}` });
    if (!found.items[0]) throw notFound();
    return found.items[0];
  }

  /** The instance of a stored data source, from the cache when its resourceVersion is the one cached. */
  instanceOf(object: DataSourceObject): Promise<DataSourceInstance> {
    const { namespace = '', name } = object.metadata;
    const key = `${namespace}/${name}`;
    const rv = Number(object.metadata.resourceVersion ?? 0);
    const cached = this.cache.get(key);
    if (cached && cached.resourceVersion === rv) return cached.instance;
    // An older version than the cached one (a read that raced a write): used once, never cached.
    if (cached && cached.resourceVersion > rv) return this.load(object);
    const previous = cached;
    const instance = (async () => {
      if (previous) await this.dispose(previous.type, namespace, name);
      return this.load(object);
    })();
    const entry: CacheEntry = { resourceVersion: rv, type: object.spec.type, instance };
    this.cache.set(key, entry);
    // A failed load (the database went away) is not kept: the next request tries again.
    instance.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return instance;
  }

  /** A data source was deleted (or is known gone): its cached instance goes and its plugin disposes of it. */
  async forget(namespace: string, uid: string): Promise<void> {
    const key = `${namespace}/${uid}`;
    const cached = this.cache.get(key);
    if (!cached) return;
    this.cache.delete(key);
    await this.dispose(cached.type, namespace, uid);
  }

  /**
   * A namespace was deleted (its organization): every cached data source of it goes, and its plugin disposes of it
   * (closes its pools). Instances of other namespaces stay.
   */
  async forgetNamespace(namespace: string): Promise<void> {
    const prefix = `${namespace}/`;
    const uids = [...this.cache.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    await Promise.all(uids.map((uid) => this.forget(namespace, uid)));
  }

  /** At shutdown: every plugin releases everything (`close`), and the cache empties. */
  async close(): Promise<void> {
    this.cache.clear();
    await Promise.all(
      this.plugins.map((p) => p.close?.().catch((err: unknown) => this.log?.warn('a data source plugin failed to close', { plugin: p.id, error: errorText(err) }))),
    );
  }

  private async load(object: DataSourceObject): Promise<DataSourceInstance> {
    const { namespace = '', name } = object.metadata;
    const s = object.spec;
    const secure = await this.registry.secureValues(KIND, namespace, name);
    return {
      namespace,
      uid: name,
      id: Number(object.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
      name: s.name,
      type: s.type,
      url: s.url,
      user: s.user,
      database: s.database,
      basicAuth: s.basicAuth,
      basicAuthUser: s.basicAuthUser,
      withCredentials: s.withCredentials,
      jsonData: s.jsonData ?? {},
      secure,
      resourceVersion: String(object.metadata.resourceVersion ?? ''),
    };
  }

  /** A plugin failing to release is logged, never the request's failure. */
  private async dispose(type: string, namespace: string, uid: string): Promise<void> {
    const plugin = this.pluginFor(type);
    try {
      await plugin?.dispose?.(namespace, uid);
    } catch (err) {
      this.log?.warn('a data source plugin failed to dispose of a data source', { plugin: plugin?.id, namespace, uid, error: errorText(err) });
    }
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
