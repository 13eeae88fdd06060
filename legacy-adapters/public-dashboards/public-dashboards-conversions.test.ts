import type { Resource } from '../../pkg/meta';
import { parsePublicDashboardDTO, toDTO, toListPage, toNewSpec, toPublicDashboardJSON, toUpdatedSpec } from './public-dashboards-conversions';

const stored = (spec: Record<string, unknown>): Resource =>
  ({
    apiVersion: 'publicdashboard.svc.app/v1',
    kind: 'PublicDashboard',
    metadata: { name: 'pd1', creationTimestamp: '2026-01-01T00:00:00Z', annotations: { 'svc.app/createdBy': 'user:u1' } },
    spec,
  }) as unknown as Resource;

test('a DTO round-trips through the spec back to the anchor JSON and its DTO', () => {
  const dto = parsePublicDashboardDTO({ accessToken: 'ab'.repeat(16), isEnabled: true, annotationsEnabled: null, timeSelectionEnabled: true, share: 'public', uid: '' });
  expect(dto).toEqual({ accessToken: 'ab'.repeat(16), isEnabled: true, timeSelectionEnabled: true, share: 'public' });
  const json = toPublicDashboardJSON(stored(toNewSpec('d1', dto)), (identity) => (identity === 'user:u1' ? 7 : 0));
  expect(json).toEqual({
    uid: 'pd1', dashboardUid: 'd1', accessToken: 'ab'.repeat(16), createdBy: 7, updatedBy: 7, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
    timeSelectionEnabled: true, isEnabled: true, annotationsEnabled: false, share: 'public',
  });
  expect(toNewSpec('d1', parsePublicDashboardDTO(toDTO(json)))).toEqual(toNewSpec('d1', dto));
});

test('an update changes only what the body names', () => {
  const current = toNewSpec('d1', { isEnabled: true });
  expect(toUpdatedSpec(current, parsePublicDashboardDTO({ annotationsEnabled: true }))).toEqual({ ...current, annotationsEnabled: true });
});

test('binding refuses what is no DTO, and unknown share types', () => {
  for (const bad of [null, [], 'x', { isEnabled: 'yes' }, { uid: 3 }]) expect(() => parsePublicDashboardDTO(bad)).toThrow('Bad request');
  expect(() => parsePublicDashboardDTO({ share: 'friends' })).toThrow('Invalid share type');
});

test('the list is paged by title', () => {
  const item = (title: string) => ({ uid: title, accessToken: '', title, slug: title, dashboardUid: title, isEnabled: false });
  expect(toListPage([item('b'), item('c'), item('a')], 2, 2)).toEqual({ publicDashboards: [item('c')], totalCount: 3, page: 2, perPage: 2 });
});
