import SwaggerParser from '@apidevtools/swagger-parser';
import { allKinds } from '../../../apis';
import { groupVersionDocument, schemaName } from './apis-document';

const dashboards = allKinds.find((k) => k.plural === 'dashboards')!;
const subresources = [{ kind: dashboards, name: 'dto' }];
const doc = (group: string, version: string) => groupVersionDocument({ group, version, kinds: allKinds, subresources }) as any;

test.each(allKinds.map((k) => [k.group, k.version]))('the %s/%s document is valid OpenAPI 3.0', async (group, version) => {
  await SwaggerParser.validate(structuredClone(doc(group, version)));
});

test('schema names and operation ids follow kube-apiserver\'s for custom resources', () => {
  expect(schemaName('dashboard.svc.app', 'v1beta1', 'Dashboard')).toBe('app.svc.dashboard.v1beta1.Dashboard');
  const d = doc('dashboard.svc.app', 'v1beta1');
  expect(Object.keys(d.paths)).toEqual([
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/dashboards',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/dashboards/{name}',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/dashboards/{name}/dto',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/snapshots',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/snapshots/{name}',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/librarypanels',
    '/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/librarypanels/{name}',
  ]);
  const item = d.paths['/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/dashboards/{name}'];
  expect(item.get.operationId).toBe('readDashboardSvcAppV1beta1NamespacedDashboard');
  expect(d.paths['/apis/dashboard.svc.app/v1beta1/namespaces/{namespace}/dashboards'].delete.operationId).toBe('deleteDashboardSvcAppV1beta1CollectionNamespacedDashboard');
  for (const [method, action] of Object.entries({ get: 'get', put: 'put', patch: 'patch', delete: 'delete' })) {
    expect(item[method]['x-kubernetes-action']).toBe(action);
    expect(item[method]['x-kubernetes-group-version-kind']).toEqual({ group: 'dashboard.svc.app', version: 'v1beta1', kind: 'Dashboard' });
  }
});

test('PATCH: the parameters kubectl looks for, and no strategic merge patch', () => {
  for (const k of allKinds) {
    const d = doc(k.group, k.version);
    const patch = d.paths[`/apis/${k.group}/${k.version}/namespaces/{namespace}/${k.plural}/{name}`].patch;
    expect(patch.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'query:force']);
    expect(Object.keys(patch.requestBody.content).sort()).toEqual(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
  }
});

test('schemas: GVK arrays, metadata and status preserve unknown fields, the dashboard spec keeps any JSON', () => {
  const d = doc('dashboard.svc.app', 'v1beta1');
  const dash = d.components.schemas['app.svc.dashboard.v1beta1.Dashboard'];
  expect(dash['x-kubernetes-group-version-kind']).toEqual([{ group: 'dashboard.svc.app', version: 'v1beta1', kind: 'Dashboard' }]);
  expect(d.components.schemas['app.svc.dashboard.v1beta1.DashboardList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'dashboard.svc.app', version: 'v1beta1', kind: 'DashboardList' }]);
  expect(dash.properties.metadata['x-kubernetes-preserve-unknown-fields']).toBe(true);
  // ObjectMeta's fields, for kubectl explain dashboards.metadata.labels (a map of strings).
  expect(dash.properties.metadata.allOf).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
  const meta = d.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
  expect(meta.properties.labels).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
  expect(Object.keys(meta.properties)).toEqual(expect.arrayContaining(['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'annotations', 'finalizers', 'managedFields']));
  expect(dash.properties.status['x-kubernetes-preserve-unknown-fields']).toBe(true);
  expect(dash.properties.spec).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, required: ['title'], properties: { title: { type: 'string' } } });
  expect(dash.properties.spec.properties.panels.items['x-kubernetes-preserve-unknown-fields']).toBe(true);
  expect(JSON.stringify(d)).not.toContain('strategic-merge-patch');
  expect(JSON.stringify(d)).not.toContain('additionalProperties":false');
});

test('DELETE answers as the kind says: a Status (dashboards) or the object (folders)', () => {
  const del = (g: string, v: string, p: string) => doc(g, v).paths[`/apis/${g}/${v}/namespaces/{namespace}/${p}/{name}`].delete.responses[200].content['application/json'].schema.$ref;
  expect(del('dashboard.svc.app', 'v1beta1', 'dashboards')).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status');
  expect(del('folder.svc.app', 'v1beta1', 'folders')).toBe('#/components/schemas/app.svc.folder.v1beta1.Folder');
});

test('a group-version holds only its own kinds', () => {
  const d = doc('playlist.svc.app', 'v1');
  expect(Object.keys(d.paths).every((p) => p.startsWith('/apis/playlist.svc.app/v1/'))).toBe(true);
  expect(Object.keys(d.components.schemas).filter((n) => !n.startsWith('io.k8s.'))).toEqual(['app.svc.playlist.v1.Playlist', 'app.svc.playlist.v1.PlaylistList']);
});
