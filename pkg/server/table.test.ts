import type { KindRegistration, Resource } from '../meta';
import { z } from 'zod';
import { age, cellValue, columnDefinitions, humanDuration, tableWatchRenderer, toJsonPathPlus, toTable, toTableRowObject } from './table';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

test.each([
  [-5 * s, '<invalid>'],
  [-1500, '0s'],
  [0, '0s'],
  [45 * s, '45s'],
  [119 * s, '119s'],
  [2 * m, '2m'],
  [5 * m + 12 * s, '5m12s'],
  [9 * m + 59 * s, '9m59s'],
  [10 * m + 30 * s, '10m'],
  [179 * m, '179m'],
  [3 * h, '3h'],
  [3 * h + 4 * m, '3h4m'],
  [7 * h + 59 * m, '7h59m'],
  [8 * h + 30 * m, '8h'],
  [47 * h, '47h'],
  [2 * d, '2d'],
  [2 * d + 3 * h, '2d3h'],
  [7 * d + 23 * h, '7d23h'],
  [8 * d + 5 * h, '8d'],
  [729 * d, '729d'],
  [2 * 365 * d, '2y'],
  [3 * 365 * d + 12 * d, '3y12d'],
  [9 * 365 * d + 100 * d, '9y'],
])('humanDuration(%p) is %p, as kube prints ages', (ms, text) => {
  expect(humanDuration(ms)).toBe(text);
});

test('age of a timestamp: unset is <unknown>, garbage <invalid>', () => {
  const now = new Date('2025-01-02T03:04:05Z');
  expect(age('2025-01-02T02:59:00Z', now)).toBe('5m5s');
  expect(age(undefined, now)).toBe('<unknown>');
  expect(age('yesterday', now)).toBe('<invalid>');
});

test('CRD JSONPaths become jsonpath-plus paths', () => {
  expect(toJsonPathPlus('.spec.title')).toBe('$.spec.title');
  expect(toJsonPathPlus('{.spec.title}')).toBe('$.spec.title');
  expect(toJsonPathPlus(".metadata.labels['app.kubernetes.io/name']")).toBe("$.metadata.labels['app.kubernetes.io/name']");
  expect(toJsonPathPlus('$.a')).toBe('$.a');
});

describe('cells are typed as kube types them', () => {
  const now = new Date('2025-01-02T03:04:05Z');
  const obj = {
    metadata: { labels: { 'app.kubernetes.io/name': 'web' } },
    spec: { title: 'T', n: 3.7, flag: true, items: [{ v: 'a' }, { v: 'b' }], nested: { a: 1 }, when: '2025-01-02T03:00:00Z', none: null },
  };
  test.each([
    [{ type: 'string', jsonPath: '.spec.title' }, 'T'],
    [{ type: 'string', jsonPath: '.spec.n' }, '3.7'],
    [{ type: 'string', jsonPath: '.spec.flag' }, 'true'],
    [{ type: 'string', jsonPath: '.spec.nested' }, '{"a":1}'],
    [{ type: 'string', jsonPath: '.spec.items[*].v' }, 'a'],
    [{ type: 'string', jsonPath: ".metadata.labels['app.kubernetes.io/name']" }, 'web'],
    [{ type: 'string', jsonPath: '.spec.missing' }, null],
    [{ type: 'string', jsonPath: '.spec.none' }, null],
    [{ type: 'integer', jsonPath: '.spec.n' }, 3],
    [{ type: 'integer', jsonPath: '.spec.title' }, null],
    [{ type: 'number', jsonPath: '.spec.n' }, 3.7],
    [{ type: 'boolean', jsonPath: '.spec.flag' }, true],
    [{ type: 'boolean', jsonPath: '.spec.title' }, null],
    [{ type: 'date', jsonPath: '.spec.when' }, '4m5s'],
    [{ type: 'date', jsonPath: '.spec.title' }, '<invalid>'],
  ] as const)('%p → %p', (col, value) => {
    expect(cellValue({ name: 'x', ...col }, obj, now)).toEqual(value);
  });
});

const kind: KindRegistration = {
  group: 'playlist.svc.app',
  version: 'v1',
  kind: 'Playlist',
  plural: 'playlists',
  singular: 'playlist',
  specSchema: z.looseObject({}),
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Items', type: 'integer', jsonPath: '.spec.count', description: 'how many', priority: 1 },
  ],
};
const bare: KindRegistration = { ...kind, printerColumns: undefined };

function obj(name: string, created: string, rv = '7'): Resource {
  return {
    apiVersion: 'playlist.svc.app/v1',
    kind: 'Playlist',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv, generation: 1, creationTimestamp: created, labels: { a: 'b' } },
    spec: { title: `Title ${name}`, count: 2 },
  };
}

const now = new Date('2025-01-02T03:04:05Z');

test('columns: Name (format name) first, the printer columns, Age; a kind without printer columns has Name and Age', () => {
  expect(columnDefinitions(kind).map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
    ['Name', 'string', 'name', 0],
    ['Title', 'string', '', 0],
    ['Items', 'integer', '', 1],
    ['Age', 'date', '', 0],
  ]);
  expect(columnDefinitions(kind)[2].description).toBe('how many');
  expect(columnDefinitions(kind)[1].description).toBe('Custom resource definition column (in JSONPath format): .spec.title');
  expect(columnDefinitions(bare).map((c) => c.name)).toEqual(['Name', 'Age']);
  for (const c of columnDefinitions(kind)) expect(Object.keys(c).sort()).toEqual(['description', 'format', 'name', 'priority', 'type']);
});

test('a list as a Table: list metadata, one row per item, PartialObjectMetadata by default', () => {
  const table = toTable(kind, [obj('a', '2025-01-02T03:00:00Z'), obj('b', '2024-12-31T03:04:05Z')], { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }, 'Metadata', now);
  expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 } });
  expect(table.rows.map((r) => r.cells)).toEqual([
    ['a', 'Title a', 2, '4m5s'],
    ['b', 'Title b', 2, '2d'],
  ]);
  expect(table.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj('a', '2025-01-02T03:00:00Z').metadata });
  expect(toTable(bare, [obj('a', '2025-01-02T03:00:00Z')], undefined, 'Metadata', now).rows[0].cells).toEqual(['a', '4m5s']);
  expect(toTable(kind, [], { resourceVersion: '9' }, 'Metadata', now)).toMatchObject({ metadata: { resourceVersion: '9' }, rows: [] });
  expect(toTable(kind, [], { resourceVersion: '9', continue: '' }, 'Metadata', now).metadata).toEqual({ resourceVersion: '9' });
});

test('includeObject None leaves the object out; Object embeds the whole object', () => {
  const o = obj('a', '2025-01-02T03:00:00Z');
  expect(toTable(kind, [o], undefined, 'None', now).rows[0]).toEqual({ cells: ['a', 'Title a', 2, '4m5s'] });
  expect(toTable(kind, [o], undefined, 'Object', now).rows[0].object).toEqual(o);
});

test('one object: a one-row Table with its resourceVersion; noHeaders drops the columns', () => {
  const t = toTableRowObject(kind, obj('a', '2025-01-02T03:00:00Z', '42'), 'Metadata', { now });
  expect(t.metadata).toEqual({ resourceVersion: '42' });
  expect(t.rows).toHaveLength(1);
  expect(t.columnDefinitions).toHaveLength(4);
  expect(toTableRowObject(kind, obj('a', '2025-01-02T03:00:00Z'), 'Metadata', { now, noHeaders: true }).columnDefinitions).toEqual([]);
});

test('the watch renderer: columns on the first event only, Status passes through, BOOKMARK is a row-less Table', () => {
  const render = tableWatchRenderer(kind, 'None', () => now);
  const status = { kind: 'Status', apiVersion: 'v1', code: 410, reason: 'Expired' };
  expect(render({ type: 'ERROR', object: status })).toBe(status);
  const first = render({ type: 'ADDED', object: obj('a', '2025-01-02T03:00:00Z', '5') }) as { columnDefinitions: unknown[]; rows: unknown[] };
  const second = render({ type: 'MODIFIED', object: obj('b', '2025-01-02T03:00:00Z', '6') }) as { columnDefinitions: unknown[]; rows: { cells: unknown[] }[]; metadata: unknown };
  expect(first.columnDefinitions).toHaveLength(4);
  expect(second.columnDefinitions).toEqual([]);
  expect(second.rows[0].cells[0]).toBe('b');
  expect(second.metadata).toEqual({ resourceVersion: '6' });
  expect(render({ type: 'BOOKMARK', object: { kind: 'Playlist', apiVersion: 'playlist.svc.app/v1', metadata: { resourceVersion: '8' } } })).toEqual({
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: '8' },
    columnDefinitions: [],
    rows: [],
  });
});

test('rendering does not mutate the watched object, which other watches share', () => {
  const o = obj('a', '2025-01-02T03:00:00Z');
  const frozen = JSON.parse(JSON.stringify(o));
  const deepFreeze = (x: unknown): void => {
    if (x && typeof x === 'object') {
      Object.values(x).forEach(deepFreeze);
      Object.freeze(x);
    }
  };
  deepFreeze(o);
  for (const inc of ['None', 'Metadata', 'Object'] as const) tableWatchRenderer(kind, inc, () => now)({ type: 'ADDED', object: o });
  expect(o).toEqual(frozen);
});
