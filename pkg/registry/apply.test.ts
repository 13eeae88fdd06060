import type { JsonObject, ManagedFieldsEntry } from '../meta';
import { StatusError } from '../errors';
import { applyConfiguration, LAST_APPLIED, syncLastApplied } from './apply';

const apiVersion = 'playlist.svc.app/v1';
const T0 = '2025-01-01T00:00:00Z';
const T1 = '2025-01-01T00:01:00Z';

const live = (spec: JsonObject, metadata: JsonObject = {}): JsonObject => ({
  apiVersion,
  kind: 'Playlist',
  metadata: { name: 'a', namespace: 'default', uid: 'u', resourceVersion: '5', generation: 1, creationTimestamp: T0, ...metadata },
  spec,
});
const entry = (manager: string, operation: 'Apply' | 'Update', fieldsV1: JsonObject, time = T0): ManagedFieldsEntry => ({
  manager, operation, apiVersion, time, fieldsType: 'FieldsV1', fieldsV1,
});
const run = (l: JsonObject | undefined, config: JsonObject, previous: ManagedFieldsEntry[], manager = 'kubectl', force = false) =>
  applyConfiguration({ live: l, config, previous, manager, apiVersion, time: T1, force });

function conflict(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('no conflict');
}

describe('applyConfiguration', () => {
  it('on create gives the applier exactly the leaves it applied', () => {
    const { merged, managedFields } = run(undefined, { metadata: { labels: { a: '1' } }, spec: { title: 't', time: { from: 'x' } } }, []);
    expect(merged).toEqual({ metadata: { labels: { a: '1' } }, spec: { title: 't', time: { from: 'x' } } });
    expect(managedFields).toEqual([entry('kubectl', 'Apply', { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:time': { 'f:from': {} }, 'f:title': {} } }, T1)]);
  });

  it('merges maps member by member and replaces lists whole', () => {
    const { merged } = run(live({ title: 't', items: [1, 2], time: { from: 'a', to: 'b' } }), { spec: { items: [3], time: { to: 'c' } } }, []);
    expect(merged.spec).toEqual({ title: 't', items: [3], time: { from: 'a', to: 'c' } });
  });

  it("conflicts on another manager's field only when the value changes", () => {
    const previous = [entry('editor', 'Update', { 'f:spec': { '.': {}, 'f:title': {} } })];
    expect(run(live({ title: 't' }), { spec: { title: 't' } }, previous).managedFields.map((e) => e.manager)).toEqual(['kubectl', 'editor']);
    const err = conflict(() => run(live({ title: 't' }), { spec: { title: 'u' } }, previous));
    expect(err.code).toBe(409);
    expect(err.message).toBe(`Apply failed with 1 conflict: conflict with "editor" using ${apiVersion}: .spec.title`);
  });

  it('force moves the conflicting field to the applier', () => {
    const previous = [entry('editor', 'Update', { 'f:spec': { 'f:interval': {}, 'f:title': {} } })];
    const { managedFields } = run(live({ title: 't', interval: '1m' }), { spec: { title: 'u' } }, previous, 'kubectl', true);
    expect(managedFields).toEqual([entry('kubectl', 'Apply', { 'f:spec': { 'f:title': {} } }, T1), entry('editor', 'Update', { 'f:spec': { 'f:interval': {} } })]);
  });

  it('removes what the applier dropped, and maps it emptied, unless someone else owns them', () => {
    const previous = [entry('kubectl', 'Apply', { 'f:spec': { 'f:title': {}, 'f:time': { 'f:from': {}, 'f:to': {} }, 'f:note': {} } })];
    const l = live({ title: 't', time: { from: 'a', to: 'b' }, note: 'n', other: 1 });
    expect(run(l, { spec: { title: 't' } }, previous).merged.spec).toEqual({ title: 't', other: 1 });
    const shared = [...previous, entry('b', 'Update', { 'f:spec': { 'f:note': {} } })];
    expect(run(l, { spec: { title: 't' } }, shared).merged.spec).toEqual({ title: 't', note: 'n', other: 1 });
  });

  it('keeps the applier time when nothing changed', () => {
    const previous = [entry('kubectl', 'Apply', { 'f:spec': { 'f:title': {} } })];
    expect(run(live({ title: 't' }), { spec: { title: 't' } }, previous).managedFields).toEqual(previous);
  });
});

describe('syncLastApplied', () => {
  it("rewrites kubectl's annotation when it is there, for kubectl only", () => {
    const merged = live({ title: 't' }, { annotations: { [LAST_APPLIED]: '{}' } });
    const config = { apiVersion, kind: 'Playlist', metadata: { name: 'a', annotations: { [LAST_APPLIED]: 'x', b: '1' } }, spec: { title: 't' } };
    const synced = syncLastApplied(merged, config, 'kubectl');
    expect(JSON.parse((synced.metadata as { annotations: Record<string, string> }).annotations[LAST_APPLIED])).toEqual({ ...config, metadata: { name: 'a', annotations: { b: '1' } } });
    expect(syncLastApplied(merged, config, 'other')).toBe(merged);
    expect(syncLastApplied(live({}), config, 'kubectl')).toEqual(live({}));
  });
});
