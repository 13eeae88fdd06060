import { z } from 'zod';
import type { KindRegistration } from '../meta';
import { apiGroupDiscoveryList, apiGroupList, apiResourceList, compareKubeVersions, enabledAlphaFromToggles, groupsOf, servedKinds, storageVersionHash, versionInfo } from './discovery';

const kind = (group: string, version: string, k: string, extra: Partial<KindRegistration> = {}): KindRegistration => ({
  group,
  version,
  kind: k,
  plural: `${k.toLowerCase()}s`,
  singular: k.toLowerCase(),
  specSchema: z.looseObject({}),
  deleteResponse: 'status',
  ...extra,
});

const widgetV1 = kind('widgets.svc.app', 'v1', 'Widget', { shortNames: ['wd'], categories: ['svc'] });
const widgetBeta = kind('widgets.svc.app', 'v1beta1', 'Widget');
const widgetAlpha = kind('widgets.svc.app', 'v2alpha1', 'Widget');
const gadgetAlpha = kind('gadgets.svc.app', 'v0alpha1', 'Gadget');

test('versions sort as kube sorts them: GA, beta, alpha; then higher major and minor; others last', () => {
  expect(['v1alpha1', 'foo', 'v2', 'v1beta1', 'v1', 'v11alpha2', 'v1beta2', 'v12alpha1', 'bar'].sort(compareKubeVersions)).toEqual([
    'v2',
    'v1',
    'v1beta2',
    'v1beta1',
    'v12alpha1',
    'v11alpha2',
    'v1alpha1',
    'bar',
    'foo',
  ]);
});

test('alpha versions are served only when a toggle names <group>/<version>', () => {
  const all = [widgetV1, widgetBeta, widgetAlpha, gadgetAlpha];
  expect(servedKinds(all)).toEqual([widgetV1, widgetBeta]);
  expect(servedKinds(all, enabledAlphaFromToggles(['widgets.svc.app/v2alpha1']))).toEqual([widgetV1, widgetBeta, widgetAlpha]);
  expect(servedKinds(all, () => true)).toEqual(all);
});

test('groups in order of first appearance, versions best first', () => {
  expect(groupsOf([widgetBeta, gadgetAlpha, widgetAlpha, widgetV1])).toEqual([
    { name: 'widgets.svc.app', versions: ['v1', 'v1beta1', 'v2alpha1'] },
    { name: 'gadgets.svc.app', versions: ['v0alpha1'] },
  ]);
});

test('storageVersionHash is kube-apiserver\'s (known values of built-in kinds)', () => {
  expect(storageVersionHash('apps', 'v1', 'Deployment')).toBe('8aSe+NMegvE=');
  expect(storageVersionHash('', 'v1', 'Pod')).toBe('xPOwRZ+Yhw8=');
});

test('APIGroupList, APIResourceList and the aggregated list have kube\'s shapes', () => {
  expect(apiGroupList([widgetBeta, widgetV1])).toEqual({
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: 'widgets.svc.app',
        versions: [
          { groupVersion: 'widgets.svc.app/v1', version: 'v1' },
          { groupVersion: 'widgets.svc.app/v1beta1', version: 'v1beta1' },
        ],
        preferredVersion: { groupVersion: 'widgets.svc.app/v1', version: 'v1' },
      },
    ],
  });
  const subs = [{ kind: widgetV1, name: 'status', verbs: ['get', 'patch', 'update'] }];
  expect(apiResourceList([widgetV1, widgetBeta], subs, 'widgets.svc.app', 'v1')).toEqual({
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'widgets.svc.app/v1',
    resources: [
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['wd'],
        categories: ['svc'],
        storageVersionHash: storageVersionHash('widgets.svc.app', 'v1', 'Widget'),
      },
      { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
    ],
  });
  const agg = apiGroupDiscoveryList([widgetBeta, widgetV1], subs, 'v2');
  expect(agg).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {} });
  expect(agg.items[0].metadata).toEqual({ name: 'widgets.svc.app', creationTimestamp: null });
  expect(agg.items[0].versions.map((v) => [v.version, v.freshness])).toEqual([
    ['v1', 'Current'],
    ['v1beta1', 'Current'],
  ]);
  expect(agg.items[0].versions[0].resources[0]).toEqual({
    resource: 'widgets',
    responseKind: { group: 'widgets.svc.app', version: 'v1', kind: 'Widget' },
    scope: 'Namespaced',
    singularResource: 'widget',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['wd'],
    categories: ['svc'],
    subresources: [{ subresource: 'status', responseKind: { group: 'widgets.svc.app', version: 'v1', kind: 'Widget' }, verbs: ['get', 'patch', 'update'] }],
  });
  expect(agg.items[0].versions[1].resources[0]).not.toHaveProperty('subresources');
  expect(apiGroupDiscoveryList([widgetV1], [], 'v2beta1').apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
});

test('/version: Kubernetes 1.32 with the server version as build metadata, every field a string', () => {
  const info = versionInfo({ version: '0.1.0', commit: 'abc123' });
  expect(info).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.0-svc.0.1.0', gitCommit: 'abc123' });
  expect(info.gitVersion).toMatch(/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  expect(info.platform).toMatch(/^[a-z0-9]+\/[a-z0-9]+$/);
  for (const k of ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'] as const) expect(typeof info[k]).toBe('string');
});
