import type { KindRegistration } from '../../meta';
import type { DiscoverySubresource } from '../discovery';
import { type JsonSchema, structuralSchema } from './structural-schema';

/**
 * The OpenAPI v3 document of one group-version under `/apis`, in the form kube-apiserver publishes for custom
 * resources (`/openapi/v3/apis/<group>/<version>`): what `kubectl` reads to validate on the server
 * (`fieldValidation` on the PATCH operation of the kind), to choose a patch type (no strategic merge patch is
 * offered, so client-side apply sends merge patches) and to `explain` fields.
 */

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** kube names custom resource schemas by the reversed group: `app.svc.dashboard.v1beta1.Dashboard`. */
export function schemaName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** `dashboard.svc.app` → `DashboardSvcApp`, as kube's operation ids spell a group. */
function camelGroup(group: string): string {
  return group
    .split(/[.-]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

type Param = { name: string; in: 'path' | 'query'; required?: boolean; description: string; schema: JsonSchema };

const q = (name: string, description: string, schema: JsonSchema = { type: 'string', uniqueItems: true }): Param => ({ name, in: 'query', description, schema });

const PARAMS = {
  namespace: { name: 'namespace', in: 'path', required: true, description: 'object name and auth scope, such as for teams and projects', schema: { type: 'string', uniqueItems: true } } as Param,
  name: (kind: string) => ({ name: 'name', in: 'path', required: true, description: `name of the ${kind}`, schema: { type: 'string', uniqueItems: true } }) as Param,
  dryRun: q('dryRun', 'When present, indicates that modifications should not be persisted. The only valid value is All: all dry run stages are processed.'),
  fieldManager: q('fieldManager', 'A name associated with the actor or entity that is making these changes, at most 128 printable characters. Required for apply requests (application/apply-patch+yaml).'),
  fieldValidation: q('fieldValidation', 'How the server handles unknown or duplicate fields in the request: Ignore, Warn or Strict.'),
  force: q('force', 'Force is going to "force" Apply requests: the request re-acquires conflicting fields owned by other people. Must be unset for non-apply patch requests.', { type: 'boolean', uniqueItems: true }),
  limit: q('limit', 'The maximum number of items to return in one page; the response carries a continue token when there are more.', { type: 'integer', uniqueItems: true }),
  continue: q('continue', 'The continue token of the previous page of a paged list.'),
  labelSelector: q('labelSelector', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  fieldSelector: q('fieldSelector', 'A selector to restrict the list of returned objects by their fields (metadata.name, metadata.namespace). Defaults to everything.'),
  resourceVersion: q('resourceVersion', 'With watch: the resourceVersion to watch from.'),
  watch: q('watch', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.', { type: 'boolean', uniqueItems: true }),
  allowWatchBookmarks: q('allowWatchBookmarks', 'With watch: requests BOOKMARK events.', { type: 'boolean', uniqueItems: true }),
  timeoutSeconds: q('timeoutSeconds', 'Timeout for the list/watch call.', { type: 'integer', uniqueItems: true }),
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ok = (schema: JsonSchema, description = 'OK') => ({ description, content: json(schema) });
const UNAUTHORIZED = { description: 'Unauthorized' };

/** The meta.k8s.io schemas the operations refer to. */
function metaSchemas(): Record<string, JsonSchema> {
  return {
    [`${META}.ListMeta`]: {
      type: 'object',
      description: 'ListMeta describes metadata that synthetic resources must have, including lists.',
      properties: {
        continue: { type: 'string', description: 'Set when there are more items; pass it as the continue parameter to get the next page.' },
        remainingItemCount: { type: 'integer', format: 'int64', description: 'The number of items left after this page, when known.' },
        resourceVersion: { type: 'string', description: 'The version of the collection this list shows.' },
      },
    },
    [`${META}.ObjectMeta`]: {
      type: 'object',
      description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
      properties: {
        name: { type: 'string', description: 'Name must be unique within a namespace (for folders and dashboards, their uid).' },
        generateName: { type: 'string', description: 'A prefix the server makes a unique name of, when name is not given.' },
        namespace: { type: 'string', description: 'The organization: default (org 1) or org-<id>.' },
        uid: { type: 'string', description: 'Set by the server: unique in time and space.' },
        resourceVersion: { type: 'string', description: 'Set by the server: the version of this object, for optimistic concurrency and watches.' },
        generation: { type: 'integer', format: 'int64', description: 'Set by the server: a sequence number of the desired state (spec) changes.' },
        creationTimestamp: { type: 'string', format: 'date-time', description: 'Set by the server: when the object was created.' },
        deletionTimestamp: { type: 'string', format: 'date-time', description: 'Set by the server: when deletion was asked for, while finalizers remain.' },
        labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Map of string keys and values that can be used to organize and select objects.' },
        annotations: { type: 'object', additionalProperties: { type: 'string' }, description: 'Unstructured key value map; svc.app/folder names the parent folder.' },
        finalizers: { type: 'array', items: { type: 'string' }, description: 'Must be empty before the object is deleted from the registry.', 'x-kubernetes-list-type': 'set' },
        managedFields: {
          type: 'array',
          description: 'Set by the server: which field manager owns which fields.',
          items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
    [`${META}.Status`]: {
      type: 'object',
      description: 'Status is a return value for calls that do not return other objects.',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: ref(`${META}.ListMeta`),
        status: { type: 'string', description: 'Status of the operation: Success or Failure.' },
        message: { type: 'string', description: 'A human-readable description of the status of this operation.' },
        reason: { type: 'string', description: 'A machine-readable description of why this operation is in the Failure status.' },
        code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code for this status.' },
        details: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            group: { type: 'string' },
            kind: { type: 'string' },
            uid: { type: 'string' },
            retryAfterSeconds: { type: 'integer', format: 'int32' },
            causes: { type: 'array', items: { type: 'object', properties: { reason: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } } } },
          },
        },
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [`${META}.DeleteOptions`]: {
      type: 'object',
      description: 'DeleteOptions may be provided when deleting an API object.',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        dryRun: { type: 'array', items: { type: 'string' }, description: 'The only valid value is All.' },
        preconditions: { type: 'object', properties: { resourceVersion: { type: 'string' }, uid: { type: 'string' } }, description: 'Must be fulfilled before a deletion is carried out.' },
        propagationPolicy: { type: 'string' },
        gracePeriodSeconds: { type: 'integer', format: 'int64' },
      },
    },
    [`${META}.Patch`]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
    [`${META}.WatchEvent`]: {
      type: 'object',
      description: 'Event represents a single event to a watched resource.',
      required: ['type', 'object'],
      properties: { type: { type: 'string', description: 'ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.' }, object: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    },
  };
}

function kindSchemas(k: KindRegistration): Record<string, JsonSchema> {
  const gvk = (kind: string) => [{ group: k.group, version: k.version, kind }];
  const spec = structuralSchema(k.specSchema);
  spec.description ??= `Spec of the ${k.singular}.`;
  return {
    [schemaName(k.group, k.version, k.kind)]: {
      type: 'object',
      description: `${k.kind} (${k.group}/${k.version}).`,
      properties: {
        apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
        kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
        // Its fields for explain; any other metadata a client sends (ownerReferences, say) is kept, not refused.
        metadata: { allOf: [ref(`${META}.ObjectMeta`)], description: "Standard object's metadata.", 'x-kubernetes-preserve-unknown-fields': true },
        spec,
        status: { type: 'object', description: 'Status of the object, set by the server.', 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-group-version-kind': gvk(k.kind),
    },
    [schemaName(k.group, k.version, `${k.kind}List`)]: {
      type: 'object',
      description: `${k.kind}List is a list of ${k.kind}.`,
      required: ['items'],
      properties: {
        apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
        items: { type: 'array', description: `List of ${k.plural}.`, items: ref(schemaName(k.group, k.version, k.kind)) },
        kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
        metadata: ref(`${META}.ListMeta`),
      },
      'x-kubernetes-group-version-kind': gvk(`${k.kind}List`),
    },
  };
}

function kindPaths(k: KindRegistration, subresources: readonly DiscoverySubresource[]): Record<string, JsonSchema> {
  const gvk = { group: k.group, version: k.version, kind: k.kind };
  // kube's operation ids: listDashboardSvcAppV1beta1NamespacedDashboard, deleteDashboardSvcAppV1beta1CollectionNamespacedDashboard.
  const id = (verb: string, middle = '', suffix = '') => `${verb}${camelGroup(k.group)}${capitalize(k.version)}${middle}Namespaced${k.kind}${suffix}`;
  const tags = [`${camelGroup(k.group).charAt(0).toLowerCase()}${camelGroup(k.group).slice(1)}_${k.version}`];
  const op = (action: string, operationId: string, description: string, rest: JsonSchema) => ({
    tags,
    description,
    operationId,
    ...rest,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  });
  const obj = ref(schemaName(k.group, k.version, k.kind));
  const list = ref(schemaName(k.group, k.version, `${k.kind}List`));
  const status = ref(`${META}.Status`);
  const collection = `/apis/${k.group}/${k.version}/namespaces/{namespace}/${k.plural}`;
  const item = `${collection}/{name}`;
  const paths: Record<string, JsonSchema> = {
    [collection]: {
      parameters: [PARAMS.namespace],
      get: op('list', id('list'), `list or watch objects of kind ${k.kind}`, {
        parameters: [PARAMS.allowWatchBookmarks, PARAMS.continue, PARAMS.fieldSelector, PARAMS.labelSelector, PARAMS.limit, PARAMS.resourceVersion, PARAMS.timeoutSeconds, PARAMS.watch],
        responses: { 200: { description: 'OK', content: { ...json(list), 'application/json;stream=watch': { schema: ref(`${META}.WatchEvent`) } } }, 401: UNAUTHORIZED },
      }),
      post: op('post', id('create'), `create a ${k.kind}`, {
        parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation],
        requestBody: { required: true, content: json(obj) },
        responses: { 200: ok(obj), 201: ok(obj, 'Created'), 202: ok(obj, 'Accepted'), 401: UNAUTHORIZED },
      }),
      delete: op('deletecollection', id('delete', 'Collection'), `delete collection of ${k.kind}`, {
        parameters: [PARAMS.continue, PARAMS.dryRun, PARAMS.fieldSelector, PARAMS.labelSelector, PARAMS.limit],
        requestBody: { content: json(ref(`${META}.DeleteOptions`)) },
        responses: { 200: ok(status), 401: UNAUTHORIZED },
      }),
    },
    [item]: {
      parameters: [PARAMS.name(k.kind), PARAMS.namespace],
      get: op('get', id('read'), `read the specified ${k.kind}`, { responses: { 200: ok(obj), 401: UNAUTHORIZED } }),
      put: op('put', id('replace'), `replace the specified ${k.kind}`, {
        parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation],
        requestBody: { required: true, content: json(obj) },
        responses: { 200: ok(obj), 201: ok(obj, 'Created'), 401: UNAUTHORIZED },
      }),
      patch: op('patch', id('patch'), `partially update the specified ${k.kind}`, {
        parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation, PARAMS.force],
        // No application/strategic-merge-patch+json: kube-apiserver refuses it for custom resources, and kubectl
        // would choose it for client-side apply if it were listed.
        requestBody: {
          required: true,
          content: {
            'application/apply-patch+yaml': { schema: ref(`${META}.Patch`) },
            'application/json-patch+json': { schema: ref(`${META}.Patch`) },
            'application/merge-patch+json': { schema: ref(`${META}.Patch`) },
          },
        },
        responses: { 200: ok(obj), 201: ok(obj, 'Created'), 401: UNAUTHORIZED },
      }),
      delete: op('delete', id('delete'), `delete a ${k.kind}`, {
        parameters: [PARAMS.dryRun],
        requestBody: { content: json(ref(`${META}.DeleteOptions`)) },
        responses: { 200: ok(k.deleteResponse === 'status' ? status : obj), 202: ok(k.deleteResponse === 'status' ? status : obj, 'Accepted'), 401: UNAUTHORIZED },
      }),
    },
  };
  for (const s of subresources.filter((s) => s.kind === k)) {
    paths[`${item}/${s.name}`] = {
      parameters: [PARAMS.name(k.kind), PARAMS.namespace],
      get: op('get', id('read', '', capitalize(s.name)), `read ${s.name} of the specified ${k.kind}`, {
        responses: { 200: ok({ type: 'object', description: `The ${s.name} of a ${k.kind}.`, 'x-kubernetes-preserve-unknown-fields': true }), 401: UNAUTHORIZED },
      }),
    };
  }
  return paths;
}

export interface GroupVersionDocumentOptions {
  group: string;
  version: string;
  /** The kinds served; those of other group-versions are ignored. */
  kinds: readonly KindRegistration[];
  subresources?: readonly DiscoverySubresource[];
  /** `info.version`; default the Kubernetes API level. */
  infoVersion?: string;
}

/**
 * The OpenAPI 3.0 document of `/apis/<group>/<version>`.
 *
 * @example
 *   groupVersionDocument({ group: 'playlist.svc.app', version: 'v1', kinds: allKinds }).paths
 *   // { '/apis/playlist.svc.app/v1/namespaces/{namespace}/playlists': {...}, '.../playlists/{name}': {...} }
 */
export function groupVersionDocument(opts: GroupVersionDocumentOptions): JsonSchema {
  const kinds = opts.kinds.filter((k) => k.group === opts.group && k.version === opts.version);
  const schemas: Record<string, JsonSchema> = { ...metaSchemas() };
  let paths: Record<string, JsonSchema> = {};
  for (const k of kinds) {
    Object.assign(schemas, kindSchemas(k));
    paths = { ...paths, ...kindPaths(k, opts.subresources ?? []) };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'dashboard-apiserver', version: opts.infoVersion ?? 'v1.32.0' },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'HTTP basic authentication' } },
    },
    security: [{ basic: [] }],
  };
}
