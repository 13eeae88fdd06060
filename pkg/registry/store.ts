import { randomUUID } from 'node:crypto';
import { type StatusCause, StatusError } from '../errors';
import { Annotations, extend, jsonEqual, jsonProblem, Labels, type JsonObject, type KindRegistration, type KindSettings, type ManagedFieldsEntry, type Resource, type ResourceList, type SpecOf } from '../meta';
import { type CountQuery, type HistoryEvent, type LabelFilter, type Reference, type ResourceKey, type Storage, StorageError, type StorageTx, type StoredObject } from '../../storage';
import { applyConfiguration, syncLastApplied } from './apply';
import { appliedConfiguration, type ApplyOptions, checkApplyConfiguration } from './apply-config';
import { decodeContinue, encodeContinue } from './continue-token';
import type { DeleteOptions, ListOptions, RequestContext, WriteOptions } from './context';
import { type HistoryOptions, type HistoryPage, historyPage, historyVersion, type ObjectVersion } from './history';
import { KindAccess, type Verb, type WriteGate } from './access';
import { countDescendants } from './folder-counts';
import { checkFolder, deleteFolderContents, deleteTouches, type FolderRules, folderOf, type Removed, typeOf } from './folder-tree';
import { managedFieldsFromRequest, updateManagedFields } from './managed-fields';
import { generateName, generateNameProblem, nameProblem } from './names';
import { clientAnnotations, isProvisioner, newFinalizersProblem, provisioningAnnotations, nonEmpty, nonEmptyList, type ParsedBody, parseBody, toResource } from './object-meta';
import { parseFieldSelector, parseLabelSelector } from './selectors';
import { searchFieldsOf, type SearchRequest, type SearchResult, searchVisible, visibleTagCounts } from './search';
import { type PageRequest, type PageResult, pageVisible } from './paged';
import { historyValueOf, redactsHistory } from './secret-fields';
import { toStatusError } from './storage-errors';
import { storedUniqueKeys, uniqueKeysOf } from './unique';
import type { WatchAccess } from './watch-visibility';
import type { Namespaces } from './namespaces';
import { causesFromZod, REPORTING_PARSE } from './zod-causes';
import { type Dependents, dependentsOf } from './cascades';
import { deleteNamespaceWithin, distinctTypes } from './namespace-deletion';
import { flagHolders, takeFirstFlags } from './exclusive';
import { checkReferences, referenceTargetsOf, refuseReferenced } from './references';
import { dropReported, presentSecureValues, recryptedValue, type Seal, sealSecureValues, type SecureValueCipher, secureValueCauses, storedSecureMap } from './secure-values';

export interface RegistryOptions {
  nestedFolders: boolean;
  /** How this server's namespaces name organizations (from its configuration): services map org ids with it. */
  namespaces: Namespaces;
  /**
   * How many versions each kind that `keepsHistory` keeps, by group and resource (`dashboards.dashboard.svc.app`);
   * a kind not named keeps every version. See {@link keptVersions}.
   */
  versionsToKeep?: Readonly<Record<string, number>>;
  /** Each kind's settings from configuration, by group and resource, handed to its strategy (KindSettings). */
  kindSettings?: Readonly<Record<string, KindSettings>>;
  /** The encryption of kinds' `secureValues` (pkg/secrets); a write of a secure value fails without it. */
  secrets?: SecureValueCipher;
  /**
   * Limits on how many objects of a kind may exist, by group and resource (`dashboards.dashboard.svc.app`): in each
   * namespace and in all; a create beyond one is 403 "Quota reached". Checked in the creating transaction under the
   * type's lock, so concurrent creates never pass a limit together. Unset or negative: no limit.
   */
  quotas?: Readonly<Record<string, QuotaLimit>>;
}

/** A kind's quota (see RegistryOptions.quotas). */
export interface QuotaLimit {
  perNamespace?: number;
  global?: number;
  /**
   * A namespace's own limit kept in storage (one an admin set), read in the creating transaction: when it answers a
   * number, that number is the namespace's limit instead of `perNamespace`.
   */
  stored?: (tx: StorageTx, namespace: string) => Promise<number | undefined>;
  /**
   * Further limits the new object counts against, read in the creating transaction: the organization of an object
   * kept outside its organization's namespace (a token), the user a membership belongs to. Each names the objects
   * of the kind counted with the new one and their limit (undefined or negative: none).
   */
  groups?: (tx: StorageTx, obj: Resource) => Promise<readonly QuotaGroup[]>;
}

/** Objects of a kind counted together against one limit (see QuotaLimit.groups). */
export interface QuotaGroup {
  /** In this namespace, or every one, with these labels and names. */
  match: Pick<CountQuery, 'namespace' | 'everyNamespace' | 'labels' | 'names'>;
  limit: number | undefined;
}

/**
 * How many versions of a kind's objects its history keeps: `'all'`, or the newest n. Kinds that do not keep
 * history keep none beyond what lists and watches need.
 *
 * @example keptVersions(dashboardKind, { 'dashboards.dashboard.svc.app': 20 }) // 20
 */
export function keptVersions(kind: KindRegistration, versionsToKeep: Readonly<Record<string, number>> = {}): number | 'all' | 0 {
  if (!kind.keepsHistory) return 0;
  return versionsToKeep[`${kind.plural}.${kind.group}`] ?? 'all';
}

/** How often a generated name is retried when it collides. */
const GENERATE_NAME_ATTEMPTS = 8;

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

/** The second {@link timestamp} last formatted, and its text: every write of that second reuses it. */
let stamped = { second: NaN, text: '' };

/** Now, as Kubernetes writes timestamps: with second precision. */
function timestamp(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stamped.second) stamped = { second, text: `${new Date(second * 1000).toISOString().slice(0, 19)}Z` };
  return stamped.text;
}

/** An object the registry checked against its kind's schema, as the kind's own type (see SpecOf): the one cast. */
const typed = <S>(obj: Resource): Resource<SpecOf<S>> => obj as unknown as Resource<SpecOf<S>>;

/** How {@link Registry.newObject} makes an object, beyond the request's body. */
interface NewObjectOptions {
  /** The managedFields of a server-side apply; other creates are Update operations of `ctx.fieldManager`. */
  applied?: ManagedFieldsEntry[];
  seal?: Seal;
  /** The spec is the server's own (see {@link Registry.putWithin}): not checked against the kind's schema. */
  serverBuilt?: boolean;
}

/**
 * The generic registry: one CRUD engine for every kind (kube-apiserver's generic store). It alone sets the
 * system fields (uid, creationTimestamp, generation, resourceVersion, managedFields, createdBy/updatedBy);
 * kinds plug in a schema and optional strategy hooks.
 *
 * @example
 *   const registry = new Registry(storage, allKinds, { nestedFolders: true, namespaces: new Namespaces() });
 *   await registry.init();
 *   const created = await registry.create(ctx, playlistKind, { metadata: { generateName: 'pl-' }, spec });
 */
export class Registry {
  private readonly folders: FolderRules;
  private readonly versionsToKeep: Readonly<Record<string, number>>;
  private readonly kindSettings: Readonly<Record<string, KindSettings>>;
  private readonly secrets?: SecureValueCipher;
  private readonly quotas: Readonly<Record<string, QuotaLimit>>;
  /** The naming of organizations in this server's data. */
  readonly namespaces: Namespaces;
  /** init()'s run under way or done; unset before the first and after a failed one, so the next call retries. */
  private initRun?: Promise<void>;

  constructor(
    /** Private: what callers need of it (versions, changes, history, existence) are the registry's methods. */
    private readonly storage: Storage,
    readonly kinds: readonly KindRegistration[],
    options: RegistryOptions,
  ) {
    this.folders = { folderKind: kinds.find((k) => k.isFolder), nestedFolders: options.nestedFolders };
    this.versionsToKeep = options.versionsToKeep ?? {};
    this.kindSettings = options.kindSettings ?? {};
    this.quotas = options.quotas ?? {};
    this.namespaces = options.namespaces;
    this.secrets = options.secrets;
  }

  /** The encrypter a write of `kind` seals its secure values with (loaded before its transaction), if it has any. */
  private async sealerFor(kind: KindRegistration): Promise<Seal | undefined> {
    return kind.secureValues?.length && this.secrets ? this.secrets.sealer() : undefined;
  }

  private settingsOf(kind: KindRegistration): KindSettings {
    return this.kindSettings[`${kind.plural}.${kind.group}`] ?? {};
  }

  /** The newest versions an object of `kind` shows in its history; undefined: every one that storage still has. */
  private historyLimit(kind: KindRegistration): number | undefined {
    const kept = keptVersions(kind, this.versionsToKeep);
    return typeof kept === 'number' && kept > 0 ? kept : undefined;
  }

  /**
   * Registers the kinds with storage and brings what storage keeps for them up to date (search rows, redacted
   * history, unique keys): once per registry. Concurrent and later calls share one run, so services may call it
   * before each first use; after a failure (the database may have been down) the next call runs it again; after a
   * success it answers at once without touching storage. A companion is a registry of its own kinds, so it has its
   * own run.
   *
   * @example
   *   await Promise.all([registry.init(), registry.init()]); // one run
   *   await registry.init(); // resolves at once
   */
  init(): Promise<void> {
    this.initRun ??= this.registerKinds().catch((err: unknown) => {
      this.initRun = undefined;
      throw err;
    });
    return this.initRun;
  }

  private async registerKinds(): Promise<void> {
    await this.storage.registerTypes(this.kinds.map(typeOf));
    // Objects stored before their kind was searchable (or before the index existed) get their rows.
    for (const kind of this.kinds.filter((k) => k.search)) {
      await this.storage.syncSearchIndex(typeOf(kind), (value) => searchFieldsOf(kind, value as unknown as Resource)!);
    }
    // History written before a field was declared secret (or by an older server) loses it too.
    for (const kind of this.kinds.filter((k) => k.secretFields?.length)) {
      await this.storage.redactHistory(typeOf(kind), kind.secretFields!.map((p) => p.split('.')));
    }
    // Objects stored before a field was unique get their keys (a value several already share stays with the first).
    for (const kind of this.kinds.filter((k) => k.unique)) {
      await this.storage.syncUniqueKeys(typeOf(kind), kind.unique!.map((u) => u.field), (value) => storedUniqueKeys(kind, value));
    }
  }

  /**
   * The newest resourceVersion of a kind's objects, and the oldest one a list or watch may still resume from: what a
   * cache of them compares with (no access check).
   */
  versions(kind: KindRegistration): Promise<{ current: number; oldestResumable: number }> {
    return this.call(kind, '', () => this.storage.versions(typeOf(kind)));
  }

  /** The kind's writes after resourceVersion `after`, oldest first, at most `limit` (no access check): for caches. */
  changesSince(kind: KindRegistration, after: number, limit: number): Promise<HistoryEvent[]> {
    return this.call(kind, '', () => this.storage.eventsSince(typeOf(kind), after, limit));
  }

  /**
   * Rows of one object's history as stored (secret fields excluded), newest first, older than `before` when given; a
   * deleted object's too (no access check): what was deleted, and how.
   */
  storedHistory(kind: KindRegistration, namespace: string, name: string, opts: { limit: number; before?: number }): Promise<HistoryEvent[]> {
    return this.call(kind, name, () => this.storage.objectHistory({ ...typeOf(kind), namespace, name }, opts));
  }

  /**
   * The references pointing at these objects of `kind` in the caller's namespace now (no access check: callers show
   * them for an object they read): a library panel's connections.
   *
   * @example await registry.referrers(ctx, libraryPanelKind, ['cpu']); // [{ from: { resource: 'dashboards', name: 'd1', ... }, to: ... }]
   */
  referrers(ctx: RequestContext, kind: KindRegistration, names: readonly string[]): Promise<Reference[]> {
    return this.call(kind, '', () => this.storage.referrers({ ...typeOf(kind), namespace: ctx.namespace, names }));
  }

  /** Whether an object exists now (no access check). */
  async exists(kind: KindRegistration, namespace: string, name: string): Promise<boolean> {
    return (await this.call(kind, name, () => this.storage.get({ ...typeOf(kind), namespace, name }))) !== undefined;
  }

  /**
   * How many objects of `kind` exist now (no access check): in `namespace`, or every one when it is omitted, whose
   * labels hold all of `labels` (a label set to `null`: one the object lacks). For server statistics; one counting
   * query, whatever the kind.
   *
   * @example await registry.count(dashboardKind); // dashboards of every organization
   */
  async count(kind: KindRegistration, opts: { namespace?: string; labels?: Readonly<Record<string, string | null>> } = {}): Promise<number> {
    const labels: LabelFilter[] = Object.entries(opts.labels ?? {}).map(([key, value]) =>
      value === null ? { key, operator: 'DoesNotExist', values: [] } : { key, operator: 'Equals', values: [value] },
    );
    return this.call(kind, '', () => this.storage.count({ ...typeOf(kind), namespace: opts.namespace ?? '', everyNamespace: opts.namespace === undefined, labels }));
  }

  /**
   * The `metadata.uid` of each of these objects that exists now, by name (no access check): whether what a record
   * points at is still the object it pointed at.
   */
  async liveUids(kind: KindRegistration, namespace: string, names: readonly string[]): Promise<Map<string, string>> {
    const page = await this.call(kind, '', () => this.storage.list({ ...typeOf(kind), namespace, names }));
    return new Map(page.items.map((s) => [s.key.name, (s.value as unknown as Resource).metadata.uid]));
  }

  /**
   * The objects of `kind` in every namespace whose labels hold all of `labels` (no access check), at most `limit`:
   * the server's own lookups by a key that names no organization (a snapshot read by its public key, deleted by its
   * delete key), which then act in the namespace found.
   *
   * @example const [found] = await registry.findByLabels(snapshotKind, { 'svc.app/snapshot-key': key }, 1);
   */
  async findByLabels<S>(kind: KindRegistration<S>, labels: Readonly<Record<string, string>>, limit?: number): Promise<Resource<SpecOf<S>>[]> {
    const filters = Object.entries(labels).map(([key, value]) => ({ key, operator: 'Equals' as const, values: [value] }));
    return (await this.findWhere(kind, filters, limit)).map(typed<S>);
  }

  /**
   * The objects of `kind` in every namespace whose label `key` is an integer below `below` (no access check), at most
   * `limit`: the server's own sweeps (snapshots past their expiry).
   */
  async findLabelBelow(kind: KindRegistration, key: string, below: number, limit?: number): Promise<Resource[]> {
    return this.findWhere(kind, [{ key, operator: 'LessThan', values: [String(below)] }], limit);
  }

  private async findWhere(kind: KindRegistration, labels: LabelFilter[], limit?: number): Promise<Resource[]> {
    const page = await this.call(kind, '', () => this.storage.list({ ...typeOf(kind), namespace: '', everyNamespace: true, labels, limit }));
    return page.items.map((s) => this.output(kind, s));
  }

  /**
   * The clear secure values of an object ({@link KindRegistration.secureValues}), by key (no access check): for server
   * code that uses them (a proxy, a query). Several declared maps are merged.
   *
   * @example await registry.secureValues(dataSourceKind, 'default', 'prom') // { password: 's3cret' }
   */
  async secureValues(kind: KindRegistration, namespace: string, name: string): Promise<Record<string, string>> {
    const stored = await this.call(kind, name, () => this.storage.get({ ...typeOf(kind), namespace, name }));
    if (!stored) throw StatusError.notFound(gr(kind), name);
    const out: Record<string, string> = {};
    for (const { path } of kind.secureValues ?? []) {
      for (const [key, ciphertext] of Object.entries(storedSecureMap(stored.value, path))) {
        if (!this.secrets) throw new Error(`${kind.kind} ${path}: no encryption configured (RegistryOptions.secrets)`);
        out[key] = await this.secrets.decrypt(ciphertext);
      }
    }
    return out;
  }

  /**
   * Rewrites every stored secure value of every kind of this registry through `recrypt` (the secrets service's
   * re-encryption and rollback): one object at a time, each in its own transaction, so an interruption leaves
   * each object wholly in its old or its new form, both readable. A rewrite is a write (a new resourceVersion and a
   * MODIFIED event showing the same object), so that a stored value never changes under a resourceVersion that
   * caches and history already hold. Answers how many values were rewritten.
   */
  async recryptSecrets(recrypt: (ciphertext: string) => Promise<string>): Promise<number> {
    let rewritten = 0;
    for (const kind of this.kinds.filter((k) => k.secureValues?.length)) {
      const page = await this.call(kind, '', () => this.storage.list({ ...typeOf(kind), namespace: '', everyNamespace: true }));
      for (const { key } of page.items) rewritten += await this.recryptObject(kind, key, recrypt);
    }
    return rewritten;
  }

  /** One object's secure values through `recrypt`, written if the object did not change meanwhile (else again). */
  private async recryptObject(kind: KindRegistration, key: ResourceKey, recrypt: (ciphertext: string) => Promise<string>): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const stored = await this.call(kind, key.name, () => this.storage.get(key));
      // The ciphertexts are made outside the transaction: decrypting may read a data key from the database.
      const next = stored && (await recryptedValue(kind, stored.value, recrypt));
      if (!stored || !next) return 0;
      const written = await this.transact(kind, key.name, async (tx) => {
        await tx.lockTypes(this.updateLocks(kind));
        const now = await tx.get(key);
        if (now?.resourceVersion !== stored.resourceVersion) return false;
        await tx.update(key, next.value, stored.resourceVersion, writeOptionsOf(kind, toResource({ ...stored, value: next.value })));
        return true;
      });
      if (written) return next.rewritten;
      if (attempt >= 10) throw StatusError.conflict(gr(kind), key.name, 'the object kept changing while its secure values were re-encrypted');
    }
  }

  /**
   * A registry of other kinds kept beside this one's objects: the same storage and namespaces (stars beside the
   * dashboards they point at).
   */
  companion(kinds: readonly KindRegistration[]): Registry {
    return new Registry(this.storage, kinds, { nestedFolders: false, namespaces: this.namespaces, secrets: this.secrets });
  }

  /**
   * Deletes a namespace whole, as an organization's deletion does: every object of this registry's kinds and of
   * `alongside`'s (registries over the same storage: the identity kinds, the server's own) in it, and what those
   * kinds keep elsewhere for its organization (KindRegistration.orgLabel), in one storage transaction with
   * `within` (which removes the organization's own record, so no reader ever sees the one without the other).
   * Each object's deletion is in history (a DELETED watch event, with what history may record of it) and frees its
   * unique values, search row and references. No access check, cascade, finalizer or quota: nothing of the
   * namespace is left for them to keep consistent. Answers how many objects were deleted.
   *
   * @example await registry.deleteNamespace('org-7', { alongside: [identity.registry], within: (tx) => removeOrgRecord(tx) })
   */
  async deleteNamespace(namespace: string, opts: { alongside?: readonly Registry[]; within?: (tx: StorageTx) => Promise<void> } = {}): Promise<number> {
    const registries = [this, ...(opts.alongside ?? [])];
    // One transaction needs one database: a registry over other storage cannot take part.
    if (registries.some((r) => r.storage !== this.storage)) throw new Error('deleteNamespace: every registry must share its storage (one transaction)');
    const kinds = distinctTypes(registries.flatMap((r) => r.kinds));
    const orgId = this.namespaces.orgIdOf(namespace);
    // Many types in one transaction: not a group commit of one kind's writes.
    return this.call(kinds[0], namespace, () => this.storage.transact((tx) => deleteNamespaceWithin(tx, kinds, namespace, { orgId, within: opts.within })));
  }

  /** The kind served at /apis/<group>/<version>/.../<plural>, if any. */
  find(group: string, version: string, plural: string): KindRegistration | undefined {
    return this.kinds.find((k) => k.group === group && k.version === version && k.plural === plural);
  }

  async get<S>(ctx: RequestContext, kind: KindRegistration<S>, name: string): Promise<Resource<SpecOf<S>>> {
    const stored = await this.call(kind, name, () => this.storage.get(this.key(ctx, kind, name)));
    if (!stored) throw StatusError.notFound(gr(kind), name);
    const obj = this.output(kind, stored);
    const access = KindAccess.of(ctx, kind);
    if (access) await access.require('read', access.target(obj), name);
    return typed<S>(obj);
  }

  async list<S>(ctx: RequestContext, kind: KindRegistration<S>, opts: ListOptions): Promise<ResourceList<Resource<SpecOf<S>>>> {
    const selection = selectionOf(ctx, opts);
    let position = opts.position;
    if (opts.continue) position = decodeContinue(opts.continue);
    if (position || opts.resourceVersion !== undefined) {
      const versions = await this.call(kind, '', () => this.storage.versions(typeOf(kind)));
      if (position) {
        if (position.resourceVersion > versions.current) throw StatusError.badRequest('continue key is not valid: resourceVersion is in the future');
        if (position.resourceVersion < versions.oldestResumable) throw StatusError.expired(EXPIRED_CONTINUE);
      } else {
        const rv = opts.resourceVersion!;
        // kube-apiserver waits a few seconds for a version it has not seen, then answers 504; none is coming here.
        if (rv > versions.current) throw StatusError.badRequest(`Too large resource version: ${rv}, current: ${versions.current}`);
        if (opts.resourceVersionMatch === 'Exact') {
          if (rv < versions.oldestResumable) throw StatusError.expired('The resourceVersion for the provided list is too old.');
          position = { resourceVersion: rv, after: '' };
        }
      }
    }
    const page = await this.call(kind, '', () =>
      this.storage.list({
        ...typeOf(kind),
        namespace: ctx.namespace,
        limit: opts.limit,
        after: position?.after,
        atResourceVersion: position?.resourceVersion,
        ...selection,
        ...(opts.folder !== undefined ? { folders: [opts.folder] } : {}),
      }),
    );
    const all = page.items.map((s) => this.output(kind, s));
    // Filtered per page: a page may hold fewer than `limit` items, the continue token still follows storage's order.
    const access = KindAccess.of(ctx, kind);
    const items = access ? await access.readable(all) : all;
    const last = page.items[page.items.length - 1];
    return {
      apiVersion: apiVersion(kind),
      kind: `${kind.kind}List`,
      metadata: {
        resourceVersion: String(page.resourceVersion),
        ...(page.more && last ? { continue: encodeContinue(page.resourceVersion, last.key.name) } : {}),
      },
      items: items.map(typed<S>),
    };
  }

  /**
   * The versions of an object (its generations), newest first, paged with the registry's continue tokens. Who may
   * read the object may read its history. Kinds with `keepsHistory` keep every version, or their newest
   * `versionsToKeep`; others only what compaction has not yet dropped.
   *
   * @example
   *   const page = await registry.history(ctx, dashboardKind, 'abc', { limit: 10 });
   *   page.items[0].object.spec; // the newest version; page.continue resumes with older ones
   */
  async history(ctx: RequestContext, kind: KindRegistration, name: string, opts: HistoryOptions = {}): Promise<HistoryPage> {
    const current = await this.get(ctx, kind, name);
    return this.call(kind, name, () => historyPage(this.storage, this.key(ctx, kind, name), current, opts, (row) => this.present(kind, row), this.historyLimit(kind)));
  }

  /** One version (generation) of an object, or undefined when it has none such; access as {@link history}. */
  async historyVersion(ctx: RequestContext, kind: KindRegistration, name: string, generation: number): Promise<ObjectVersion | undefined> {
    const current = await this.get(ctx, kind, name);
    return this.call(kind, name, () => historyVersion(this.storage, this.key(ctx, kind, name), current, generation, (row) => this.present(kind, row), this.historyLimit(kind)));
  }

  /**
   * The searchable objects of `req.kinds` matching `req` that the caller may see, one page (see searchVisible).
   *
   * @example await registry.search(ctx, { kinds: [folderKind, dashboardKind], title: 'lat', order: 'asc', offset: 0, limit: 50 })
   */
  search(ctx: RequestContext, req: SearchRequest): Promise<SearchResult[]> {
    return this.call(req.kinds[0] ?? this.kinds[0], '', () => searchVisible(this.storage, ctx, req));
  }

  /**
   * One page of the objects of `kind` in the caller's namespace, selected, matched, sorted and counted by the
   * database over the kind's declared fields, with the number the caller may see in all (see pageVisible).
   *
   * @example await registry.page(ctx, teamKind, { query: { text: 'ops', fields: ['name'] }, orderBy: ['name', 'id'], offset: 0, limit: 50 })
   */
  async page<S>(ctx: RequestContext, kind: KindRegistration<S>, req: PageRequest): Promise<PageResult<SpecOf<S>>> {
    const { items, totalCount } = await this.call(kind, '', () => pageVisible(this.storage, ctx, kind, req, (s) => this.output(kind, s)));
    return { items: items.map(typed<S>), totalCount };
  }

  /**
   * The tags of the searchable objects of `kinds` the caller may read in its namespace, with how many carry each, by
   * tag (see visibleTagCounts).
   */
  tagCounts(ctx: RequestContext, kinds: readonly KindRegistration[]): Promise<{ tag: string; count: number }[]> {
    return this.call(kinds[0] ?? this.kinds[0], '', () => visibleTagCounts(this.storage, ctx, kinds));
  }

  /**
   * How many objects of each kind that lives in folders lie under the folder `name` (its subfolders at any depth
   * included), counting what the caller may read; the folder itself is read as the caller first (404, 403).
   *
   * @example const counts = await registry.descendantCounts(ctx, 'team-a'); counts.get(dashboardKind) // 5
   */
  async descendantCounts(ctx: RequestContext, name: string): Promise<Map<KindRegistration, number>> {
    const folderKind = this.folders.folderKind;
    if (!folderKind) return new Map();
    await this.get(ctx, folderKind, name);
    const readable = async (kind: KindRegistration, page: readonly StoredObject[]) => {
      const objects = page.map((s) => this.output(kind, s));
      return (await KindAccess.of(ctx, kind)?.readable(objects)) ?? objects;
    };
    const walk = { storage: this.storage, namespace: ctx.namespace, folderKind, contained: this.kinds.filter((k) => k.inFolder), readable };
    return this.call(folderKind, name, () => countDescendants(walk, name));
  }

  async create<S>(ctx: RequestContext, kind: KindRegistration<S>, body: unknown, opts: WriteOptions = {}): Promise<Resource<SpecOf<S>>> {
    const input = parseBody(kind, body, ctx.namespace);
    const { name: requested, generateName: prefix } = input.metadata;
    checkCreatable(kind, input);
    const access = KindAccess.of(ctx, kind);
    // kube names no object in a refused create.
    if (access) await access.require('create', access.createTarget(input.metadata.annotations?.[Annotations.folder] ?? '', input.spec), '');
    // The objects it references are checked in the transaction, as the caller (see checkReferences).
    const trail: Trail = { gate: access?.gate(), ctx, seal: await this.sealerFor(kind) };
    for (let attempt = 1; ; attempt++) {
      // A kind named by its numeric id gets its name in the transaction (see insert).
      const obj = this.newObject(ctx, kind, requested ?? (prefix ? generateName(prefix) : ''), input, { seal: trail.seal });
      const write = () =>
        this.transact(kind, obj.metadata.name, async (tx) => {
          await tx.lockTypes([typeOf(kind), ...(opts.alongside?.kinds ?? []).map(typeOf), ...(access && !opts.dryRun ? access.createdTypes() : [])]);
          // A copy of the object's own fields and metadata: what the insert sets there. The member may run again
          // (its batch rolled back) from the object as made; nothing below changes the objects they hold (spec).
          // (Copied with Object.assign, not spread: the insert may add labels, and a spread copy given a new property
          // gets a hidden class of its own on Node 20, see pkg/meta/extend.ts.)
          const created = await this.insert(tx, ctx, kind, { ...obj, metadata: Object.assign({}, obj.metadata) }, opts, trail);
          // Its default permissions commit with it: no reader ever sees it without them.
          if (access && !opts.dryRun) await access.created(created, tx);
          if (opts.alongside && !opts.dryRun) await opts.alongside.write(tx, created);
          return created;
        });
      try {
        return typed<S>(await (trail.gate ? trail.gate.run(write) : write()));
      } catch (err) {
        const collided = err instanceof StatusError && err.reason === 'AlreadyExists';
        if (!collided || requested || attempt >= GENERATE_NAME_ATTEMPTS) throw err;
      }
    }
  }

  /** PUT: replaces the object; the body must carry the resourceVersion it was read at. */
  async update<S>(ctx: RequestContext, kind: KindRegistration<S>, name: string, body: unknown, opts: WriteOptions = {}): Promise<Resource<SpecOf<S>>> {
    const input = parseBody(kind, body, ctx.namespace);
    checkNameMatches(input, name);
    const rv = input.metadata.resourceVersion;
    if (!rv) {
      throw StatusError.invalid(kind, name, [{ field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
    }
    const expected = parseResourceVersion(rv);
    return typed<S>(await this.guaranteedUpdate(ctx, kind, name, opts, () => ({ input, expected }), input.metadata.annotations?.[Annotations.folder] ?? ''));
  }

  /**
   * Read-modify-write under the type's lock: `patch` turns the current object (as clients see it) into the
   * new body. A `metadata.resourceVersion` in the result is a precondition, as in kube-apiserver.
   */
  async patch<S>(ctx: RequestContext, kind: KindRegistration<S>, name: string, patch: (current: Resource<SpecOf<S>>) => unknown, opts: WriteOptions = {}): Promise<Resource<SpecOf<S>>> {
    const updated = await this.guaranteedUpdate(ctx, kind, name, opts, (current, storedVersion) => {
      const patched = patch(typed<S>(current));
      const input = parseBody(kind, patched, ctx.namespace);
      checkNameMatches(input, name);
      const rv = input.metadata.resourceVersion;
      return { input, expected: rv ? parseResourceVersion(rv) : storedVersion };
    });
    return typed<S>(updated);
  }

  /**
   * Server-side apply of a configuration by `ctx.fieldManager` (see apply.ts): creates the object when it does not
   * exist. A `metadata.resourceVersion` in the configuration is a precondition.
   *
   * @example await registry.apply(ctx, kind, 'a', { apiVersion, kind: 'Playlist', metadata: { name: 'a' }, spec }, { force: false })
   */
  async apply(ctx: RequestContext, kind: KindRegistration, name: string, config: JsonObject, opts: ApplyOptions): Promise<{ object: Resource; created: boolean }> {
    checkApplyConfiguration(kind, config);
    const input = parseBody(kind, config, ctx.namespace);
    checkNameMatches(input, name);
    const applied = appliedConfiguration(input, config);
    const rv = input.metadata.resourceVersion;
    const key = this.key(ctx, kind, name);
    const apply = (live: JsonObject | undefined, previous: readonly ManagedFieldsEntry[]) => {
      const { merged, managedFields } = applyConfiguration({
        live, config: applied, previous, manager: ctx.fieldManager, apiVersion: apiVersion(kind), time: timestamp(), force: opts.force,
      });
      return { input: parseBody(kind, syncLastApplied(merged, config, ctx.fieldManager), ctx.namespace), managedFields };
    };
    const folder = input.metadata.annotations?.[Annotations.folder] ?? '';
    const prepare = async (gate: WriteGate, current: Resource | undefined) => {
      await gate.decide(current ? writeChecks(gate, current, folder) : [{ verb: 'create', target: gate.access.createTarget(folder, input.spec) }]);
    };
    return this.guarded(ctx, kind, name, prepare, (trail) =>
      this.transact(kind, name, async (tx) => {
        await tx.lockTypes(this.updateLocks(kind));
        const stored = await tx.get(key);
        if (!stored) {
          checkCreatable(kind, { ...input, metadata: { ...input.metadata, name } });
          const created = apply(undefined, []);
          const obj = this.newObject(ctx, kind, name, created.input, { applied: created.managedFields, seal: trail.seal });
          trail.gate?.require('create', trail.gate.access.createTarget(folderOf(obj), obj.spec), '');
          const object = await this.insert(tx, ctx, kind, obj, opts, trail);
          if (trail.gate && !opts.dryRun) await trail.gate.access.created(object, tx);
          return { object, created: true };
        }
        const object = await this.replace(tx, ctx, kind, stored, opts, trail, (current) => {
          const { input: next, managedFields } = apply(current as unknown as JsonObject, current.metadata.managedFields ?? []);
          return { input: next, expected: rv ? parseResourceVersion(rv) : stored.resourceVersion, managedFields };
        });
        return { object, created: false };
      }),
    );
  }

  /**
   * Creates the object `name`, or updates it when it exists, in one transaction under the type's lock, so a
   * concurrent writer of the same name never makes it fail: `produce` turns the current object (as clients see it;
   * undefined when there is none) into the body to write. Access as create or update; `opts` as for either.
   *
   * @example await registry.upsert(ctx, preferencesKind, 'user-abc', (current) => ({ ...current, metadata: { name: 'user-abc' }, spec }))
   */
  async upsert<S>(ctx: RequestContext, kind: KindRegistration<S>, name: string, produce: (current: Resource<SpecOf<S>> | undefined) => unknown, opts: WriteOptions = {}): Promise<{ object: Resource<SpecOf<S>>; created: boolean }> {
    const parse = (current: Resource | undefined) => {
      const input = parseBody(kind, produce(current && typed<S>(current)), ctx.namespace);
      checkNameMatches(input, name);
      return input;
    };
    const prepare = async (gate: WriteGate, current: Resource | undefined) => {
      await gate.decide(current ? writeChecks(gate, current, undefined) : []);
    };
    const written = await this.guarded(ctx, kind, name, prepare, (trail) =>
      this.transact(kind, name, async (tx) => {
        await tx.lockTypes(this.updateLocks(kind));
        const stored = await tx.get(this.key(ctx, kind, name));
        if (stored) {
          const object = await this.replace(tx, ctx, kind, stored, opts, trail, (current, storedVersion) => ({ input: parse(current), expected: storedVersion }));
          return { object, created: false };
        }
        const input = parse(undefined);
        checkCreatable(kind, { ...input, metadata: { ...input.metadata, name } });
        const obj = this.newObject(ctx, kind, name, input, { seal: trail.seal });
        trail.gate?.require('create', trail.gate.access.createTarget(folderOf(obj), obj.spec), '');
        const object = await this.insert(tx, ctx, kind, obj, opts, trail);
        if (trail.gate && !opts.dryRun) await trail.gate.access.created(object, tx);
        return { object, created: true };
      }),
    );
    return { object: typed<S>(written.object), created: written.created };
  }

  /**
   * DELETE. An object with finalizers is not removed: it gets its deletionTimestamp (and generation + 1) and is
   * removed by the update that empties its finalizers; the answer is then the object as it now is.
   */
  async delete(ctx: RequestContext, kind: KindRegistration, name: string, opts: DeleteOptions = {}): Promise<Resource | JsonObject> {
    const key = this.key(ctx, kind, name);
    const prepare = async (gate: WriteGate, current: Resource | undefined) => {
      if (current) await gate.decide([{ verb: 'delete', target: gate.access.target(current) }]);
    };
    const { object, deleted } = await this.guarded(ctx, kind, name, prepare, (trail) =>
      this.transact(kind, name, async (tx) => {
        await tx.lockTypes(deleteTouches(kind, this.kinds));
        const current = await tx.get(key);
        if (!current) throw StatusError.notFound(gr(kind), name);
        trail.gate?.require('delete', trail.gate.access.target(toResource(current)), name);
        checkPreconditions(kind, name, current, opts.preconditions);
        await opts.check?.(tx, toResource(current), undefined);
        return this.remove(tx, kind, current, opts, trail);
      }),
    );
    if (!deleted || kind.deleteResponse === 'object') return object;
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: kind.group, kind: kind.plural, uid: object.metadata.uid },
      code: 200,
    };
  }

  /**
   * DELETE on the collection (kube's deletecollection): deletes every object the selectors match, each as DELETE
   * would (finalizers, folder contents), in one transaction, and answers the list of them as deleted. With access
   * checks, only what the caller may read is matched, and all of it must be deletable by the caller (else 403 and
   * nothing is deleted).
   */
  async deleteCollection(ctx: RequestContext, kind: KindRegistration, selectors: ListOptions, opts: DeleteOptions = {}): Promise<ResourceList> {
    const selection = selectionOf(ctx, selectors);
    await this.requireVerb(ctx, kind, 'delete');
    const query = { ...typeOf(kind), namespace: ctx.namespace, ...selection };
    const prepare = async (gate: WriteGate) => {
      const targets = (await this.call(kind, '', () => this.storage.list(query))).items.map((s) => gate.access.target(toResource(s)));
      await gate.decide(targets.flatMap((target) => [{ verb: 'read' as const, target }, { verb: 'delete' as const, target }]));
    };
    return this.guarded(ctx, kind, '', prepare, (trail) =>
      this.transact(kind, '', async (tx) => {
        await tx.lockTypes(deleteTouches(kind, this.kinds));
        const page = await tx.list(query);
        const matched = trail.gate ? readableOf(trail.gate, page.items) : page.items;
        const items: Resource[] = [];
        for (const { key } of matched) {
          // Gone already when a folder deleted before it held it.
          const current = await tx.get(key);
          if (!current) continue;
          checkPreconditions(kind, key.name, current, opts.preconditions);
          items.push((await this.remove(tx, kind, current, opts, trail)).object);
        }
        return { apiVersion: apiVersion(kind), kind: `${kind.kind}List`, metadata: { resourceVersion: String(page.resourceVersion) }, items };
      }),
    );
  }

  private async guaranteedUpdate(
    ctx: RequestContext,
    kind: KindRegistration,
    name: string,
    opts: WriteOptions,
    produce: Produce,
    /** The folder the update moves the object to, when known before reading it (PUT). */
    destination?: string,
  ): Promise<Resource> {
    const key = this.key(ctx, kind, name);
    const prepare = async (gate: WriteGate, current: Resource | undefined) => {
      if (current) await gate.decide(writeChecks(gate, current, destination));
    };
    return this.guarded(ctx, kind, name, prepare, (trail) =>
      this.transact(kind, name, async (tx) => {
        // With the type locked no other writer runs: the read below is the state the write replaces.
        await tx.lockTypes(this.updateLocks(kind));
        const stored = await tx.get(key);
        if (!stored) throw StatusError.notFound(gr(kind), name);
        return this.replace(tx, ctx, kind, stored, opts, trail, produce);
      }),
    );
  }

  /**
   * Runs a write with the caller's access decided outside its transaction (see access.ts): `prepare` decides what
   * can be foreseen from the object as it is now, the transaction asks the gate, and a check it did not foresee
   * (a patch moving the object, a concurrent change) makes it run again.
   */
  private async guarded<T>(
    ctx: RequestContext,
    kind: KindRegistration,
    name: string,
    prepare: (gate: WriteGate, current: Resource | undefined) => Promise<void>,
    write: (trail: Trail) => Promise<T>,
  ): Promise<T> {
    const gate = KindAccess.of(ctx, kind)?.gate();
    const trail: Trail = { gate, ctx, seal: await this.sealerFor(kind) };
    if (!gate) return write(trail);
    const stored = name ? await this.call(kind, name, () => this.storage.get(this.key(ctx, kind, name))) : undefined;
    await prepare(gate, stored ? toResource(stored) : undefined);
    return gate.run(() => write(trail));
  }

  /** Tells each removed object's access hooks (per kind), in the deleting transaction, that it is gone. */
  private async removedHook(tx: StorageTx, ctx: RequestContext, removed: readonly Removed[]): Promise<void> {
    for (const kind of new Set(removed.map((r) => r.kind))) {
      const access = KindAccess.of(ctx, kind);
      if (access) await access.deleted(removed.filter((r) => r.kind === kind).map((r) => access.describe(r.object)), tx);
    }
  }

  /**
   * An update may end a deletion (it empties the finalizers), which deletes a folder's contents: a folder's update
   * takes every lock its delete takes, up front and in order.
   */
  private updateLocks(kind: KindRegistration) {
    return deleteTouches(kind, this.kinds);
  }

  private async insert(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, obj: Resource, opts: WriteOptions, trail?: Trail): Promise<Resource> {
    // Each check is awaited only for a kind that has it: every await of a create costs, even one that does nothing.
    if (kind.inFolder) await checkFolder(tx, this.folders, kind, obj);
    if (kind.references) await checkReferences(tx, ctx, this.kinds, kind, obj, trail?.gate);
    if (kind.exclusive) await takeFirstFlags(tx, kind, obj);
    const quota = this.quotas[`${kind.plural}.${kind.group}`];
    if (quota) await this.checkQuota(tx, ctx, kind, obj, quota);
    if (opts.dryRun) {
      if (obj.metadata.name && (await tx.get(this.key(ctx, kind, obj.metadata.name)))) throw new StorageError('KeyExists', undefined, 'exists');
      return this.decorate(kind, obj);
    }
    if (kind.internalIds) {
      const type = typeOf(kind);
      const named = kind.internalIds === 'name' && obj.metadata.name !== '';
      const id = named ? Number(obj.metadata.name) : await tx.nextInternalId(type);
      if (named) await tx.reserveInternalId(type, id);
      if (kind.internalIds === 'name') obj.metadata.name = String(id);
      obj.metadata.labels = extend(obj.metadata.labels ?? {}, { [Labels.deprecatedInternalID]: String(id) });
    }
    if (kind.exclusive) await this.clearFlags(tx, ctx, kind, obj);
    return this.output(kind, await tx.create(this.key(ctx, kind, obj.metadata.name), forStorage(obj), writeOptionsOf(kind, obj)));
  }

  /**
   * Refuses a create that would pass `quota`, its kind's (RegistryOptions.quotas): counted under the type's lock (taken
   * here when the caller has not), so concurrent creates never pass a limit together.
   */
  private async checkQuota(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, obj: Resource, quota: QuotaLimit): Promise<void> {
    const type = typeOf(kind);
    await tx.lockTypes([type]);
    const groups: QuotaGroup[] = [
      { match: { namespace: ctx.namespace }, limit: (await quota.stored?.(tx, ctx.namespace)) ?? quota.perNamespace },
      { match: { namespace: '', everyNamespace: true }, limit: quota.global },
      ...((await quota.groups?.(tx, obj)) ?? []),
    ];
    for (const { match, limit } of groups) {
      if (limit !== undefined && limit >= 0 && (await tx.count({ ...type, ...match })) >= limit) throw new StatusError(403, 'Forbidden', 'Quota reached');
    }
  }

  /** Writes what `produce` makes of the stored object; removes it when that ends its deletion. */
  private async replace(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, stored: StoredObject, opts: WriteOptions, trail: Trail, produce: Produce): Promise<Resource> {
    const current = toResource(stored);
    const gate = trail.gate;
    gate?.require('write', gate.access.target(current), stored.key.name);
    const refusal = isProvisioner(ctx) ? undefined : kind.strategy?.refuseChange?.(current, 'update');
    if (refusal) throw refusal;
    if (opts.expectedGeneration !== undefined && opts.expectedGeneration !== current.metadata.generation) {
      throw generationConflict(kind, stored.key.name, opts.expectedGeneration, current.metadata.generation);
    }
    const { input, expected, managedFields } = produce(this.decorate(kind, structuredClone(current)), stored.resourceVersion);
    if (expected !== stored.resourceVersion) throw toStatusError(new StorageError('Conflict', stored.key, 'stale'), kind, stored.key.name);
    const next = this.nextObject(ctx, kind, current, input, managedFields, trail.seal);
    if (!next) return this.decorate(kind, current);
    // Moving to another folder is creating there.
    if (gate && folderOf(next) !== folderOf(current)) gate.require('create', gate.access.createTarget(folderOf(next), next.spec), stored.key.name);
    await checkFolder(tx, this.folders, kind, next);
    await checkReferences(tx, ctx, this.kinds, kind, next, gate);
    await opts.check?.(tx, current, next);
    if (opts.dryRun) return this.decorate(kind, next);
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers) {
      // The last finalizer is gone: the object goes now (kube's shouldDeleteDuringUpdate).
      return this.output(kind, await this.removeNow(tx, kind, stored.key, expected, trail, next));
    }
    await this.clearFlags(tx, ctx, kind, next);
    return this.output(kind, await tx.update(stored.key, forStorage(next), expected, writeOptionsOf(kind, next)));
  }

  /**
   * Takes the exclusive flags `obj` holds (KindRegistration.exclusive) from the objects holding them: each is
   * updated (generation + 1, as any change of its spec) in the writing transaction. Not the holder's own write, so
   * no rule of its kind refuses it (a provisioned data source stops being the default too).
   */
  private async clearFlags(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, obj: Resource): Promise<void> {
    for (const { stored, fields } of await flagHolders(tx, kind, obj)) {
      const current = toResource(stored);
      const annotations = { ...current.metadata.annotations, [Annotations.updatedBy]: ctx.requester.identity, [Annotations.updatedTimestamp]: timestamp() };
      const next: Resource = {
        ...current,
        metadata: { ...current.metadata, generation: current.metadata.generation + 1, annotations },
        spec: { ...current.spec, ...Object.fromEntries(fields.map((f) => [f, false])) },
      };
      await tx.update(stored.key, forStorage(next), stored.resourceVersion, writeOptionsOf(kind, next));
    }
  }

  /** DELETE of a stored object: marks it while finalizers remain, removes it otherwise. Idempotent while marked. */
  private async remove(tx: StorageTx, kind: KindRegistration, stored: StoredObject, opts: WriteOptions, trail: Trail): Promise<{ object: Resource; deleted: boolean }> {
    const current = toResource(stored);
    const refusal = isProvisioner(trail.ctx) ? undefined : kind.strategy?.refuseChange?.(current, 'delete');
    if (refusal) throw refusal;
    if (!current.metadata.finalizers?.length) {
      if (opts.dryRun) return { object: this.decorate(kind, current), deleted: true };
      return { object: this.output(kind, await this.removeNow(tx, kind, stored.key, stored.resourceVersion, trail)), deleted: true };
    }
    if (current.metadata.deletionTimestamp) return { object: this.decorate(kind, current), deleted: false };
    // kube's markAsDeleting: these kinds have no graceful deletion, so the grace period is 0.
    const deleting = { deletionTimestamp: timestamp(), deletionGracePeriodSeconds: 0, generation: current.metadata.generation + 1 };
    const marked: Resource = { ...current, metadata: { ...current.metadata, ...deleting } };
    if (opts.dryRun) return { object: this.decorate(kind, marked), deleted: false };
    return { object: this.output(kind, await tx.update(stored.key, forStorage(marked), stored.resourceVersion, writeOptionsOf(kind, marked))), deleted: false };
  }

  /** Deletes now; history records `finalValue` (default: the stored value), without the kind's secret fields. */
  private async removeNow(tx: StorageTx, kind: KindRegistration, key: ResourceKey, expected: number, trail: Trail, finalValue?: Resource): Promise<StoredObject> {
    const contents = kind.isFolder ? await deleteFolderContents(tx, kind, this.kinds, key.namespace, key.name) : [];
    const final = finalValue ? forStorage(finalValue) : redactsHistory(kind) ? (await tx.get(key))?.value : undefined;
    const deleted = await tx.delete(key, expected, final && (historyValueOf(kind, final) ?? final));
    // Their permissions go with them, in the same transaction (a folder's contents too).
    await this.removedHook(tx, trail.ctx, [...contents, { kind, object: toResource(deleted) }]);
    // Its dependents too (kind.cascades), and those of what a folder held, each as its own delete, or rewritten
    // without what named it (a prune); one an earlier cascade removed is gone already.
    const cascading: Dependents[] = [];
    for (const owner of [{ kind, object: toResource(deleted) }, ...contents]) cascading.push(...(await dependentsOf(tx, owner.kind, owner.object)));
    for (const dependents of cascading) {
      for (const { key } of dependents.items) {
        const current = await tx.get(key);
        if (!current) continue;
        const pruned = dependents.prune?.(toResource(current));
        if (pruned === undefined) await this.removeNow(tx, dependents.kind, key, current.resourceVersion, trail);
        else if (!jsonEqual(pruned, (current.value as unknown as Resource).spec)) await this.rewrite(tx, trail.ctx, dependents.kind, current, pruned as JsonObject);
      }
    }
    // Nothing removed may stay referenced (KindRegistration.references): else the whole delete is refused.
    await refuseReferenced(tx, this.kinds, [{ kind, object: toResource(deleted) }]);
    await refuseReferenced(tx, this.kinds, contents, key.name);
    return deleted;
  }

  /**
   * A new object from a create request: system fields set here, then the kind's hooks (see NewObjectOptions).
   */
  private newObject(ctx: RequestContext, kind: KindRegistration, name: string, input: ParsedBody, opts: NewObjectOptions = {}): Resource {
    const { applied, seal } = opts;
    const now = timestamp();
    const obj: Resource = {
      apiVersion: apiVersion(kind),
      kind: kind.kind,
      metadata: {
        name,
        ...(input.metadata.generateName && !input.metadata.name ? { generateName: input.metadata.generateName } : {}),
        namespace: ctx.namespace,
        uid: randomUUID(),
        resourceVersion: '',
        generation: 1,
        creationTimestamp: now,
        labels: nonEmpty(withoutInternalId(kind, input.metadata.labels)),
        annotations: { ...clientAnnotations(input.metadata.annotations), ...provisioningAnnotations(ctx, input.metadata.annotations), [Annotations.createdBy]: ctx.requester.identity },
        finalizers: nonEmptyList(input.metadata.finalizers),
      },
      spec: input.spec as JsonObject,
      status: {},
    };
    obj.metadata = withoutUndefined(obj.metadata);
    dropReported(kind, obj);
    kind.strategy?.prepareForCreate?.(obj);
    if (!opts.serverBuilt) this.validate(kind, obj, undefined, secureValueCauses(kind, obj));
    kind.strategy?.canonicalize?.(obj, this.settingsOf(kind));
    sealSecureValues(kind, obj, undefined, seal);
    obj.metadata.managedFields =
      applied ??
      updateManagedFields({
        previous: managedFieldsFromRequest(input.metadata.managedFields, []),
        oldObj: undefined,
        newObj: obj as unknown as JsonObject,
        manager: ctx.fieldManager,
        apiVersion: obj.apiVersion,
        time: now,
      });
    return obj;
  }

  /**
   * The object an update produces, or undefined when it changes nothing, managedFields included (then nothing is
   * written). `applied` are the managedFields of a server-side apply; otherwise the write is an Update operation
   * starting from the request's managedFields when it carries usable ones (managedFieldsFromRequest).
   */
  private nextObject(ctx: RequestContext, kind: KindRegistration, current: Resource, input: ParsedBody, applied?: ManagedFieldsEntry[], seal?: Seal): Resource | undefined {
    const system = Object.fromEntries(
      [Annotations.createdBy, Annotations.updatedBy, Annotations.updatedTimestamp].flatMap((k) =>
        current.metadata.annotations?.[k] !== undefined ? [[k, current.metadata.annotations[k]]] : [],
      ),
    );
    const obj: Resource = {
      apiVersion: current.apiVersion,
      kind: current.kind,
      metadata: {
        ...current.metadata,
        labels: nonEmpty(keepInternalId(kind, input.metadata.labels, current)),
        annotations: { ...clientAnnotations(input.metadata.annotations), ...provisioningAnnotations(ctx, input.metadata.annotations, current), ...system },
        finalizers: nonEmptyList(input.metadata.finalizers),
      },
      spec: input.spec as JsonObject,
      // Writes to the main resource never change status.
      status: current.status,
    };
    obj.metadata = withoutUndefined(obj.metadata);
    dropReported(kind, obj);
    kind.strategy?.prepareForUpdate?.(obj, current);
    const forbidden = current.metadata.deletionTimestamp ? newFinalizersProblem(obj.metadata.finalizers, current.metadata.finalizers) : undefined;
    this.validate(kind, obj, current, [...(forbidden ? [forbidden] : []), ...secureValueCauses(kind, obj)]);
    kind.strategy?.canonicalize?.(obj, this.settingsOf(kind));
    sealSecureValues(kind, obj, current, seal);
    if (!jsonEqual(obj.spec, current.spec)) obj.metadata.generation = current.metadata.generation + 1;

    const now = timestamp();
    const stored = current.metadata.managedFields ?? [];
    const managedFields =
      applied ??
      updateManagedFields({
        previous: managedFieldsFromRequest(input.metadata.managedFields, stored),
        oldObj: current as unknown as JsonObject,
        newObj: obj as unknown as JsonObject,
        manager: ctx.fieldManager,
        apiVersion: obj.apiVersion,
        time: now,
      });
    if (jsonEqual(comparable(obj), comparable(current)) && jsonEqual(managedFields, stored)) return undefined;
    obj.metadata.annotations = { ...obj.metadata.annotations, [Annotations.updatedBy]: ctx.requester.identity, [Annotations.updatedTimestamp]: now };
    obj.metadata.managedFields = managedFields.length ? managedFields : undefined;
    obj.metadata = withoutUndefined(obj.metadata);
    return obj;
  }

  private validate(kind: KindRegistration, obj: Resource, old?: Resource, metaCauses: StatusCause[] = []): void {
    // What every request body is held to, held again whatever produced the object: a JSON patch can nest a value
    // under another until no recursive walk of it would return.
    // A spec that is no object at all is the schema's to report.
    const spec = typeof obj.spec === 'object' && obj.spec !== null ? jsonProblem(obj.spec, { path: 'spec', depth: 2 }) : undefined;
    const unstorable = spec ?? jsonProblem(obj.metadata.annotations ?? {}, { path: 'metadata.annotations', depth: 3 });
    if (unstorable) throw StatusError.invalid(kind, obj.metadata.name, [{ field: unstorable.path, message: unstorable.message }]);
    const parsed = kind.specSchema.safeParse(obj.spec, REPORTING_PARSE);
    // A secure value is never shown, and a cause the registry gave its field already is not repeated.
    const secure = (kind.secureValues ?? []).map((v) => v.path);
    const given = new Set(metaCauses.map((c) => c.field));
    const schemaCauses = parsed.success ? [] : causesFromZod(parsed.error, 'spec', secure).filter((c) => !given.has(c.field));
    const causes: StatusCause[] = [...metaCauses, ...schemaCauses];
    if (parsed.success) {
      obj.spec = parsed.data as JsonObject;
      causes.push(...(kind.strategy?.validate?.(obj, old) ?? []));
    }
    if (causes.length) throw StatusError.invalid(kind, obj.metadata.name, causes);
  }

  private key(ctx: RequestContext, kind: KindRegistration, name: string): ResourceKey {
    // Named, not spread from typeOf: such a literal gets a hidden class of its own every time (pkg/meta/extend.ts).
    return { group: kind.group, resource: kind.plural, namespace: ctx.namespace, name };
  }

  /**
   * Refuses (403) a caller who may do `verb` on no object of the kind. A deletecollection needs it up front, and
   * a verb the kind does not serve is checked before its 405, as kube-apiserver authorizes before it routes.
   */
  async requireVerb(ctx: RequestContext, kind: KindRegistration, verb: Verb): Promise<void> {
    const access = KindAccess.of(ctx, kind);
    if (access) await access.require(verb, '', '');
  }

  /**
   * Creates an object or replaces its spec inside the caller's transaction, with the rules of any write (system
   * fields, validation) but no access check: for companion objects that must commit with another write, as the
   * permissions of a new dashboard commit with it. Lock order: the caller's types first, then this kind's.
   *
   * `serverBuilt`: the spec is the server's own, made from typed values (the default permissions of a new object), so
   * a new object is not checked against the kind's schema again: the check could not fail, and it would run under the
   * type's lock, which every concurrent writer of the type waits for. A spec replacing a stored one is checked.
   *
   * @example await identityRegistry.putWithin(tx, ctx, resourcePermissionKind, name, spec);
   */
  async putWithin<S>(tx: StorageTx, ctx: RequestContext, kind: KindRegistration<S>, name: string, typedSpec: SpecOf<S>, opts: { serverBuilt?: boolean } = {}): Promise<Resource<SpecOf<S>>> {
    // Checked against the kind's schema below, as any write's spec: JSON to the registry.
    const spec = typedSpec as unknown as JsonObject;
    const key = this.key(ctx, kind, name);
    const create = () => this.insert(tx, ctx, kind, this.newObject(ctx, kind, name, { metadata: { name }, spec }, { serverBuilt: opts.serverBuilt }), {});
    // The companion of a new object is new too, nearly always: it is written at once, and read only when the name
    // is taken (a round trip less under the type's lock). Not for a kind whose create checks what an update does
    // not (a quota, exclusive flags).
    if (!this.quotas[`${kind.plural}.${kind.group}`] && !kind.exclusive?.length) {
      try {
        return typed<S>(await create());
      } catch (err) {
        if (!(err instanceof StorageError && err.code === 'KeyExists' && err.key?.name === name)) throw err;
      }
    }
    const stored = await tx.get(key);
    return typed<S>(stored ? await this.rewrite(tx, ctx, kind, stored, spec) : await create());
  }

  /** Replaces a stored object's spec in the caller's transaction, its metadata kept, with no access check. */
  private rewrite(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, stored: StoredObject, spec: JsonObject): Promise<Resource> {
    const { metadata } = toResource(stored);
    return this.replace(tx, ctx, kind, stored, {}, { ctx }, () => ({ input: { metadata: metadata as unknown as ParsedBody['metadata'], spec }, expected: stored.resourceVersion }));
  }

  /**
   * Deletes an object, if it exists, inside the caller's transaction (see {@link putWithin}). `annotations` are
   * added to the final state history keeps of it (what it was deleted with).
   */
  async deleteWithin(tx: StorageTx, ctx: RequestContext, kind: KindRegistration, name: string, annotations?: Record<string, string>): Promise<void> {
    const stored = await tx.get(this.key(ctx, kind, name));
    if (!stored) return;
    const current = toResource(stored);
    const final = annotations ? { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, ...annotations } } } : undefined;
    await this.removeNow(tx, kind, stored.key, stored.resourceVersion, { ctx }, final);
  }

  /**
   * What the caller of `ctx` may see of the kind's objects (watch events); undefined when everything is visible
   * (a kind without `access`, no access check in the context).
   */
  visibility(ctx: RequestContext, kind: KindRegistration): WatchAccess | undefined {
    const access = KindAccess.of(ctx, kind);
    return access ? { canRead: (obj) => access.canRead(obj), couldReadDeleted: (obj) => access.couldReadDeleted(obj) } : undefined;
  }

  /** A stored row as the API shows it (resourceVersion set, the kind's derived fields added): for watch events. */
  present(kind: KindRegistration, s: StoredObject): Resource {
    return this.decorate(kind, toResource(s));
  }

  private output(kind: KindRegistration, s: StoredObject): Resource {
    return this.present(kind, s);
  }

  private decorate(kind: KindRegistration, obj: Resource): Resource {
    // No answer carries a secure value, not even encrypted: removed from a spec of its own (see KindStrategy.decorate).
    if (kind.secureValues?.length) obj.spec = { ...(obj.spec as JsonObject) } as Resource['spec'];
    presentSecureValues(kind, obj);
    kind.strategy?.decorate?.(obj);
    return obj;
  }

  private transact<T>(kind: KindRegistration, name: string, fn: (tx: StorageTx) => Promise<T>): Promise<T> {
    // Writes of one kind share commits (group commit): its counter's lock runs them one at a time anyway.
    return this.call(kind, name, () => this.storage.transact(fn, { group: `${kind.group}/${kind.plural}` }));
  }

  private async call<T>(kind: KindRegistration, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toStatusError(err, kind, name);
    }
  }
}

/** What a write carries through its transaction: its access gate, and the context its access hooks are called with. */
interface Trail {
  gate?: WriteGate;
  ctx: RequestContext;
  /** The encrypter of the kind's secure values, loaded before the transaction. */
  seal?: Seal;
}

/** An update needs write on the object, and create in the folder it moves to. */
function writeChecks(gate: WriteGate, current: Resource, destination: string | undefined) {
  const checks: Parameters<WriteGate['decide']>[0][number][] = [{ verb: 'write', target: gate.access.target(current) }];
  if (destination !== undefined && destination !== folderOf(current)) checks.push({ verb: 'create', target: gate.access.createTarget(destination, current.spec) });
  return checks;
}

/**
 * The listed objects the caller may read; all of them must be deletable by it.
 * @throws StatusError 403 naming the delete action and the first object it may read but not delete.
 */
function readableOf(gate: WriteGate, items: readonly StoredObject[]): StoredObject[] {
  const targets = items.map((s) => gate.access.target(toResource(s)));
  const readable = gate.allows('read', targets);
  const matched = items.filter((_, i) => readable[i]);
  const deletable = gate.allows('delete', targets.filter((_, i) => readable[i]));
  const refused = matched.find((_, i) => !deletable[i]);
  if (refused) throw gate.access.denied(gate.access.action('delete'), refused.key.name);
  return matched;
}

/** Turns the current object (as clients see it) into the body to write; `managedFields` when a server-side apply computed them. */
type Produce = (current: Resource, storedVersion: number) => { input: ParsedBody; expected: number; managedFields?: ManagedFieldsEntry[] };

const gr = (kind: KindRegistration) => ({ group: kind.group, resource: kind.plural });
const apiVersion = (kind: KindRegistration) => `${kind.group}/${kind.version}`;

/**
 * What storage is told besides the value: the folder column, for searchable kinds the search row, for kinds with
 * unique fields their keys, for kinds with references what the object names, and for kinds with secret fields what
 * history records instead of the value.
 */
function writeOptionsOf(kind: KindRegistration, obj: Resource) {
  return {
    folder: folderOf(obj),
    search: searchFieldsOf(kind, obj),
    unique: uniqueKeysOf(kind, obj),
    references: referenceTargetsOf(kind, obj),
    historyValue: historyValueOf(kind, forStorage(obj)),
  };
}

/**
 * Absent and undefined are one thing in JSON; managedFields must not count an undefined key as a field. A copy
 * without them (`o` itself when it has none), not `delete`: deleting a property that is not the last one added
 * turns an object into a hash table (V8's dictionary mode), and every later read of it, its JSON and its copies
 * then take the slow path (issue 16; the gain measured on a create was within the machine's noise, under 3 %).
 */
function withoutUndefined<T extends object>(o: T): T {
  const keys = Object.keys(o) as (keyof T)[];
  if (keys.every((k) => o[k] !== undefined)) return o;
  const out = {} as T;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** What is stored: the object without its resourceVersion (the storage row holds that) and without empty maps. */
function forStorage(obj: Resource): JsonObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata } as unknown as JsonObject;
}

/** What decides whether an update is a no-op: everything but the fields the registry stamps on every write. */
function comparable(obj: Resource): unknown {
  const { managedFields: _m, resourceVersion: _r, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** What the label and field selectors of a list or deletecollection ask storage for. */
function selectionOf(ctx: RequestContext, opts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>) {
  const labels = parseLabelSelector(opts.labelSelector);
  const fields = parseFieldSelector(opts.fieldSelector);
  const names: string[] = [];
  const excludeNames: string[] = [];
  let otherNamespace = false;
  for (const f of fields) {
    if (f.field === 'metadata.name') (f.operator === 'Equals' ? names : excludeNames).push(f.value);
    if (f.field === 'metadata.namespace' && (f.value === ctx.namespace) !== (f.operator === 'Equals')) otherNamespace = true;
  }
  // metadata.name=a,metadata.name=b can match nothing; another namespace matches nothing here either.
  const wanted = new Set(names);
  const onlyNames = otherNamespace || wanted.size > 1 ? [] : wanted.size === 1 ? [...wanted] : undefined;
  return { labels, names: onlyNames, excludeNames };
}

/**
 * What a create (or an apply that creates) needs: a name or a prefix (a kind named by its numeric id: neither, or a
 * numeric name), and no resourceVersion.
 */
function checkCreatable(kind: KindRegistration, input: ParsedBody): void {
  const { name: requested, generateName: prefix, resourceVersion } = input.metadata;
  if (resourceVersion) throw StatusError.badRequest('resourceVersion should not be set on objects to be created');
  const numbered = kind.internalIds === 'name';
  const problem = requested
    ? numbered && !/^[1-9][0-9]{0,14}$/.test(requested)
      ? 'Invalid value: must be a positive integer (the object is named by its numeric id)'
      : nameProblem(requested)
    : prefix
      ? numbered
        ? 'Forbidden: the object is named by its numeric id'
        : generateNameProblem(prefix)
      : numbered
        ? undefined
        : 'Required value: name or generateName is required';
  if (problem) {
    throw StatusError.invalid(kind, requested ?? '', [{ field: requested || !prefix ? 'metadata.name' : 'metadata.generateName', message: problem }]);
  }
}

function checkNameMatches(input: ParsedBody, name: string): void {
  const bodyName = input.metadata.name;
  if (bodyName !== undefined && bodyName !== name) {
    throw StatusError.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  }
}

function parseResourceVersion(rv: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(rv)) throw StatusError.badRequest(`invalid resourceVersion ${JSON.stringify(rv)}: must be a positive integer`);
  return Number(rv);
}

function checkPreconditions(kind: KindRegistration, name: string, current: StoredObject, pre: DeleteOptions['preconditions']): void {
  const meta = (current.value as unknown as Resource).metadata;
  const fail = (what: string, want: string, have: string) =>
    StatusError.conflict(gr(kind), name, `Precondition failed: ${what} in precondition: ${want}, ${what} in object meta: ${have}`);
  if (pre?.uid && pre.uid !== meta.uid) throw fail('UID', pre.uid, meta.uid);
  if (pre?.resourceVersion && pre.resourceVersion !== String(current.resourceVersion)) {
    throw fail('ResourceVersion', pre.resourceVersion, String(current.resourceVersion));
  }
}

/** An update made on another generation than the stored one: the kind's conflict, as a stale resourceVersion is. */
function generationConflict(kind: KindRegistration, name: string, want: number, have: number): StatusError {
  return kind.conflictError?.(name) ?? StatusError.conflict(gr(kind), name, `the object has been modified: its generation is ${have}, not ${want}`);
}

/** On create the registry alone numbers an `internalIds` kind: a client's value of the label is dropped. */
function withoutInternalId<L extends Record<string, string> | null | undefined>(kind: KindRegistration, labels: L): L {
  if (!kind.internalIds || !labels || !(Labels.deprecatedInternalID in labels)) return labels;
  const { [Labels.deprecatedInternalID]: _dropped, ...rest } = labels;
  return rest as L;
}

/** An update keeps the stored numeric id whatever the body says. */
function keepInternalId<L extends Record<string, string> | null | undefined>(kind: KindRegistration, labels: L, current: Resource): L | Record<string, string> {
  const id = current.metadata.labels?.[Labels.deprecatedInternalID];
  if (!kind.internalIds || id === undefined) return labels;
  return { ...labels, [Labels.deprecatedInternalID]: id };
}
