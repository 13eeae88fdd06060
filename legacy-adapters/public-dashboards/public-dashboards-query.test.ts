import { annotationQueries, panelQueries, parsePublicQueryRequest, SAFE_RESOLUTION, safeIntervalAndMaxDataPoints, timeSettings } from './public-dashboards-query';

const ds = { uid: 'td' };
const model = {
  time: { from: 'now-6h', to: 'now' },
  panels: [
    { id: 1, datasource: ds, timeFrom: '1h', targets: [{ refId: 'A', exemplar: true }, { refId: 'B', hide: true }, { refId: 'C', datasource: { uid: 'other' } }] },
    { id: 2, type: 'row', collapsed: true, panels: [{ id: 3, targets: [{ refId: 'R', datasource: ds }] }] },
  ],
  annotations: { list: [{ enable: true, datasource: { uid: 'svc' } }, { enable: false, datasource: { uid: 'svc' } }, { enable: true, datasource: { uid: 'prom' } }, { enable: true, datasource: '-- Svc --', target: { type: 'tags', tags: ['a'], matchAny: true, limit: 5 } }] },
};
const req = parsePublicQueryRequest({ intervalMs: 1000, maxDataPoints: 100, timeRange: { from: 'now-5m', to: 'now' } })!;

test("a panel's queries: hidden ones left out, the panel's data source given, exemplars dropped; collapsed rows searched", () => {
  expect(panelQueries(model, 1)).toEqual([{ refId: 'A', datasource: ds }, { refId: 'C', datasource: { uid: 'other' } }]);
  expect(panelQueries(model, 3)).toEqual([{ refId: 'R', datasource: ds }]);
  expect(panelQueries(model, 9)).toBeUndefined();
});

test("the time: the panel's timeFrom over the dashboard's, the visitor's only with time selection", () => {
  expect(timeSettings(model, 1, req, false)).toEqual({ from: '1h', to: 'now' });
  expect(timeSettings(model, 3, req, false)).toEqual({ from: 'now-6h', to: 'now' });
  expect(timeSettings(model, 1, req, true)).toEqual({ from: 'now-5m', to: 'now' });
  expect(timeSettings({}, 1, req, false)).toEqual({});
});

test('the interval is at least the range over the safe resolution', () => {
  expect(safeIntervalAndMaxDataPoints(req, { from: 0, to: 60_000 })).toEqual({ intervalMs: 1000, maxDataPoints: 100 });
  expect(safeIntervalAndMaxDataPoints(req, { from: 0, to: 110_000_000 })).toEqual({ intervalMs: 10_000, maxDataPoints: SAFE_RESOLUTION });
});

test('the body is bound by type; annotation queries are the enabled ones of the built-in data source', () => {
  expect(parsePublicQueryRequest({})).toEqual({ intervalMs: 0, maxDataPoints: 0, timeRange: { from: '', to: '', timezone: '' } });
  for (const bad of [null, [], { intervalMs: '1' }, { timeRange: 'x' }, { timeRange: { from: 1 } }]) expect(parsePublicQueryRequest(bad)).toBeUndefined();
  expect(annotationQueries(model)).toEqual([
    { source: model.annotations.list[0], matchAny: false, limit: 100 },
    { source: model.annotations.list[3], tags: ['a'], matchAny: true, limit: 5 },
  ]);
});
