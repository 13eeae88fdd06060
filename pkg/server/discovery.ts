import { createHash } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { StatusError } from '../errors';
import type { KindRegistration } from '../meta';
import type { BuildInfo } from './build-info';
import { notAcceptable, type Offer, pickOffer } from './negotiate';
import { cachedDocument, type CachedDocument, sendCached } from './openapi/cacheable';
import { statusBody } from './render-error';

/**
 * API discovery, generated from the kinds list: `/version`, `/api`, `/apis` (APIGroupList, or aggregated
 * discovery when the Accept header asks for it), `/apis/<group>` and `/apis/<group>/<version>`, in the shapes
 * kube-apiserver serves for custom resources, so kubectl and client libraries find every kind.
 */

/** The verbs every kind's collection and objects answer (the generic registry serves them all alike). */
export const RESOURCE_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

/** A subresource as discovery lists it: `dashboards/dto`. `Subresource` objects of the router fit as they are. */
export interface DiscoverySubresource {
  kind: KindRegistration;
  name: string;
  /** The kind the subresource answers with; default the parent's kind. */
  responseKind?: string;
  /** Default `['get']`: subresources are read-only so far. */
  verbs?: readonly string[];
}

export interface DiscoveryOptions {
  kinds: readonly KindRegistration[];
  subresources?: readonly DiscoverySubresource[];
  /** Whether an alpha version is switched on (spec §9.2: alpha versions are served only behind a feature flag). */
  enabledAlpha?: (group: string, version: string) => boolean;
}

const NOT_FOUND = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource');

/** `v1` → GA 1; `v1beta2` → beta 1.2; `v2alpha1` → alpha 2.1; anything else sorts last, by name. */
function parseKubeVersion(v: string): { level: number; major: number; minor: number } | undefined {
  const m = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/.exec(v);
  if (!m) return undefined;
  return { level: m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, major: Number(m[1]), minor: m[3] === undefined ? 0 : Number(m[3]) };
}

/**
 * kube's version priority (`CompareKubeAwareVersionStrings`), best first: GA before beta before alpha, then the
 * higher major, then the higher minor; versions not of that form last, alphabetically.
 *
 * @example
 *   ['v1alpha1', 'v2', 'v1beta1', 'v1', 'foo'].sort(compareKubeVersions) // ['v2', 'v1', 'v1beta1', 'v1alpha1', 'foo']
 */
export function compareKubeVersions(a: string, b: string): number {
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  return pb.level - pa.level || pb.major - pa.major || pb.minor - pa.minor;
}

export const isAlphaVersion = (version: string): boolean => /alpha/.test(version);

/**
 * The kinds a server serves: all, except those of an alpha version its feature toggles do not enable. Give the
 * same list to the Registry, discovery and OpenAPI, so a disabled version is neither served nor listed.
 */
export function servedKinds(kinds: readonly KindRegistration[], enabledAlpha: (group: string, version: string) => boolean = () => false): KindRegistration[] {
  return kinds.filter((k) => !isAlphaVersion(k.version) || enabledAlpha(k.group, k.version));
}

/**
 * Alpha versions are enabled by naming `<group>/<version>` in `feature_toggles.enable` (kube-apiserver's
 * `--runtime-config=<group>/<version>=true`).
 *
 * @example
 *   enabledAlphaFromToggles(config.feature_toggles.enable)('dashboard.svc.app', 'v1alpha1')
 *   // true with SVC_FEATURE_TOGGLES_ENABLE=dashboard.svc.app/v1alpha1
 */
export function enabledAlphaFromToggles(enabled: readonly string[]): (group: string, version: string) => boolean {
  const set = new Set(enabled);
  return (group, version) => set.has(`${group}/${version}`);
}

/** kube's `discovery.StorageVersionHash`: 8 bytes of SHA-256 of `<group>/<version>/<kind>`, base64. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

interface GroupVersions {
  name: string;
  /** Best first. */
  versions: string[];
}

/** The groups of `kinds`, in order of first appearance, each with its versions best first. */
export function groupsOf(kinds: readonly KindRegistration[]): GroupVersions[] {
  const groups = new Map<string, Set<string>>();
  for (const k of kinds) {
    if (!groups.has(k.group)) groups.set(k.group, new Set());
    groups.get(k.group)!.add(k.version);
  }
  return [...groups].map(([name, versions]) => ({ name, versions: [...versions].sort(compareKubeVersions) }));
}

const gv = (group: string, version: string) => ({ groupVersion: `${group}/${version}`, version });

function apiGroup(g: GroupVersions) {
  return { name: g.name, versions: g.versions.map((v) => gv(g.name, v)), preferredVersion: gv(g.name, g.versions[0]) };
}

/** `/apis`: the APIGroupList. */
export function apiGroupList(kinds: readonly KindRegistration[]) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupsOf(kinds).map(apiGroup) };
}

function kindsIn(kinds: readonly KindRegistration[], group: string, version: string): KindRegistration[] {
  return kinds.filter((k) => k.group === group && k.version === version).sort((a, b) => a.plural.localeCompare(b.plural));
}

function subresourcesOf(subresources: readonly DiscoverySubresource[], kind: KindRegistration): DiscoverySubresource[] {
  return subresources.filter((s) => s.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
}

/** `/apis/<group>/<version>`: the APIResourceList, each kind and then its subresources. */
export function apiResourceList(kinds: readonly KindRegistration[], subresources: readonly DiscoverySubresource[], group: string, version: string) {
  const resources: Record<string, unknown>[] = [];
  for (const k of kindsIn(kinds, group, version)) {
    resources.push({
      name: k.plural,
      singularName: k.singular,
      namespaced: true,
      kind: k.kind,
      verbs: [...RESOURCE_VERBS],
      ...(k.shortNames?.length ? { shortNames: [...k.shortNames] } : {}),
      ...(k.categories?.length ? { categories: [...k.categories] } : {}),
      storageVersionHash: storageVersionHash(k.group, k.version, k.kind),
    });
    for (const s of subresourcesOf(subresources, k)) {
      resources.push({ name: `${k.plural}/${s.name}`, singularName: '', namespaced: true, kind: s.responseKind ?? k.kind, verbs: [...(s.verbs ?? ['get'])] });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
}

/** `/apis` as aggregated discovery (apidiscovery.k8s.io APIGroupDiscoveryList, v2 or v2beta1: the same shape). */
export function apiGroupDiscoveryList(kinds: readonly KindRegistration[], subresources: readonly DiscoverySubresource[], apiVersion: 'v2' | 'v2beta1') {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${apiVersion}`,
    metadata: {},
    items: groupsOf(kinds).map((g) => ({
      metadata: { name: g.name, creationTimestamp: null },
      versions: g.versions.map((version) => ({
        version,
        resources: kindsIn(kinds, g.name, version).map((k) => {
          const subs = subresourcesOf(subresources, k);
          return {
            resource: k.plural,
            responseKind: { group: k.group, version: k.version, kind: k.kind },
            scope: 'Namespaced',
            singularResource: k.singular,
            verbs: [...RESOURCE_VERBS],
            ...(k.shortNames?.length ? { shortNames: [...k.shortNames] } : {}),
            ...(k.categories?.length ? { categories: [...k.categories] } : {}),
            ...(subs.length
              ? { subresources: subs.map((s) => ({ subresource: s.name, responseKind: { group: k.group, version: k.version, kind: s.responseKind ?? k.kind }, verbs: [...(s.verbs ?? ['get'])] })) }
              : {}),
          };
        }),
        freshness: 'Current',
      })),
    })),
  };
}

const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

/**
 * `/version`, kube's version.Info: the Kubernetes API level this server follows (1.32) and its own version as
 * the build metadata of gitVersion. `goVersion` and `compiler` name the runtime that plays Go's part.
 */
export function versionInfo(build: BuildInfo) {
  return {
    major: '1',
    minor: '32',
    gitVersion: `v1.32.0-svc.${build.version}`,
    gitCommit: build.commit,
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
  };
}

/** `GET /version`: public, as kube-apiserver's (system:public-info-viewer); mount it before authentication. */
export function versionRouter(build: BuildInfo): Router {
  const router = Router();
  const info = versionInfo(build);
  router.get('/version', (_req, res) => {
    res.json(info);
  });
  return router;
}

type DiscoveryFormat = { doc: CachedDocument; contentType: string };

const aggregatedType = (v: string) => `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;

function notFound(res: Response): void {
  res.status(404).json(statusBody(NOT_FOUND()));
}

/**
 * `/api`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>` (GET only). Mount before the `/apis` resource
 * router, after authentication (kube grants discovery to authenticated users).
 *
 * `/api` is a 404: this server has no core group, and kubectl and client-go tolerate a 404 there (an empty
 * APIVersions would add a nameless group to client-go's aggregated discovery).
 *
 * @example
 *   app.use(discoveryRouter({ kinds, subresources, enabledAlpha: enabledAlphaFromToggles(config.feature_toggles.enable) }));
 */
export function discoveryRouter(opts: DiscoveryOptions): Router {
  const kinds = servedKinds(opts.kinds, opts.enabledAlpha);
  const subresources = (opts.subresources ?? []).filter((s) => kinds.includes(s.kind));
  const groups = groupsOf(kinds);
  const json = 'application/json';

  const apisOffers: readonly Offer<DiscoveryFormat>[] = [
    { type: 'application', subtype: 'json', convert: { as: 'APIGroupDiscoveryList', g: 'apidiscovery.k8s.io', v: 'v2' }, value: { doc: cachedDocument(apiGroupDiscoveryList(kinds, subresources, 'v2')), contentType: aggregatedType('v2') } },
    { type: 'application', subtype: 'json', convert: { as: 'APIGroupDiscoveryList', g: 'apidiscovery.k8s.io', v: 'v2beta1' }, value: { doc: cachedDocument(apiGroupDiscoveryList(kinds, subresources, 'v2beta1')), contentType: aggregatedType('v2beta1') } },
    { type: 'application', subtype: 'json', value: { doc: cachedDocument(apiGroupList(kinds)), contentType: json } },
  ];
  const groupDocs = new Map(groups.map((g) => [g.name, cachedDocument({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) })]));
  const versionDocs = new Map(groups.flatMap((g) => g.versions.map((v) => [`${g.name}/${v}`, cachedDocument(apiResourceList(kinds, subresources, g.name, v))] as const)));
  const plainOffers: readonly Offer<null>[] = [{ type: 'application', subtype: 'json', value: null }];

  const sendPlain = (req: Request, res: Response, doc: CachedDocument | undefined) => {
    if (!doc) return notFound(res);
    if (!pickOffer(req.get('accept'), plainOffers)) throw notAcceptable(plainOffers);
    sendCached(req, res, doc, json);
  };

  const router = Router();
  router.get('/api', (_req, res) => notFound(res));
  router.get('/apis', (req, res) => {
    const offer = pickOffer(req.get('accept'), apisOffers);
    if (!offer) throw notAcceptable(apisOffers);
    res.setHeader('Vary', 'Accept');
    sendCached(req, res, offer.value.doc, offer.value.contentType);
  });
  router.get('/apis/:group', (req, res) => sendPlain(req, res, groupDocs.get(req.params.group as string)));
  router.get('/apis/:group/:version', (req, res) => sendPlain(req, res, versionDocs.get(`${req.params.group}/${req.params.version}`)));
  return router;
}
