import type { JsonObject, Resource } from '../meta';
import type { HistoryEvent, StoredObject, WatchAction } from '../../storage';
import { parseFieldSelector, parseLabelSelector } from './selectors';
import { Change, eventFor, type WatchSelection } from './watch-change';

const present = (s: StoredObject): Resource => {
  const v = s.value as unknown as Resource;
  return { ...v, metadata: { ...v.metadata, resourceVersion: String(s.resourceVersion) } };
};

function change(action: WatchAction, rv: number, labels: Record<string, string>, previous?: Record<string, string>, name = 'a'): Change {
  const value = { apiVersion: 'x/v1', kind: 'X', metadata: { name, namespace: 'default', labels }, spec: {} } as unknown as JsonObject;
  const ev: HistoryEvent = { key: { group: 'x', resource: 'xs', namespace: 'default', name }, resourceVersion: rv, value, action, previousResourceVersion: action === 'ADDED' ? 0 : rv - 1 };
  const c = new Change(ev, present);
  if (previous) c.previous = { value: { ...value, metadata: { name, namespace: 'default', labels: previous } }, labels: previous };
  return c;
}

const sel = (labels = '', fields = ''): WatchSelection => ({ labels: parseLabelSelector(labels), fields: parseFieldSelector(fields) });
const summary = (ev: ReturnType<typeof eventFor>) => ev && [ev.type, (ev.object as Resource).metadata.resourceVersion, (ev.object as Resource).metadata.labels];

describe('eventFor (kube cacheWatcher semantics)', () => {
  it('passes every change through without a selector', () => {
    for (const action of ['ADDED', 'MODIFIED', 'DELETED'] as const) expect(summary(eventFor(sel(), change(action, 5, {}, {})))).toEqual([action, '5', {}]);
  });

  it.each<[WatchAction, Record<string, string>, Record<string, string> | undefined, unknown]>([
    ['ADDED', { t: 'a' }, undefined, ['ADDED', '5', { t: 'a' }]],
    ['ADDED', { t: 'b' }, undefined, undefined],
    ['MODIFIED', { t: 'a' }, { t: 'a' }, ['MODIFIED', '5', { t: 'a' }]],
    ['MODIFIED', { t: 'a' }, { t: 'b' }, ['ADDED', '5', { t: 'a' }]],
    // leaving: the previous content, at the new version
    ['MODIFIED', { t: 'b' }, { t: 'a' }, ['DELETED', '5', { t: 'a' }]],
    ['MODIFIED', { t: 'b' }, { t: 'c' }, undefined],
    ['DELETED', { t: 'a' }, undefined, ['DELETED', '5', { t: 'a' }]],
    ['DELETED', { t: 'b' }, undefined, undefined],
  ])('%s with labels %j (before: %j) gives %j under t=a', (action, labels, before, expected) => {
    expect(summary(eventFor(sel('t=a'), change(action, 5, labels, before)))).toEqual(expected);
  });

  it('reads an unknown previous state (compacted away) as unchanged labels', () => {
    const c = change('MODIFIED', 5, { t: 'a' });
    c.previous = null;
    expect(summary(eventFor(sel('t=a'), c))).toEqual(['MODIFIED', '5', { t: 'a' }]);
  });

  it('applies field selectors on name and namespace', () => {
    expect(eventFor(sel('', 'metadata.name=a'), change('ADDED', 1, {}))).toBeDefined();
    expect(eventFor(sel('', 'metadata.name=b'), change('ADDED', 1, {}))).toBeUndefined();
    expect(eventFor(sel('', 'metadata.namespace!=default'), change('ADDED', 1, {}))).toBeUndefined();
  });

  it('presents each change once, however many watches receive it', () => {
    const c = change('MODIFIED', 5, { t: 'a' }, { t: 'a' });
    expect(eventFor(sel('t=a'), c)!.object).toBe(eventFor(sel(), c)!.object);
  });
});
