import type { JsonObject, ManagedFieldsEntry } from '../meta';
import { type Comparison, compare, createdFields, defaultFieldManager, encodeFields, fieldsOf, managedFieldsFromRequest, recordable, updateManagedFields, validateFieldManager } from './managed-fields';

const apiVersion = 'dashboard.svc.app/v1';
const T0 = '2025-01-01T00:00:00Z';
const T1 = '2025-01-01T00:01:00Z';
const T2 = '2025-01-01T00:02:00Z';

function dashboard(spec: JsonObject, metadata: JsonObject = {}, status?: JsonObject): JsonObject {
  return {
    apiVersion,
    kind: 'Dashboard',
    metadata: { name: 'abc', namespace: 'default', uid: 'u1', resourceVersion: '1', generation: 1, creationTimestamp: T0, ...metadata },
    spec,
    ...(status ? { status } : {}),
  };
}

function entry(manager: string, time: string, fieldsV1: JsonObject, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry {
  return { manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1, ...extra };
}

const write = (previous: ManagedFieldsEntry[], oldObj: JsonObject | undefined, newObj: JsonObject, manager: string, time: string, subresource?: string) =>
  updateManagedFields({ previous, oldObj, newObj, manager, apiVersion, time, subresource });

describe('fieldsOf', () => {
  it('lists the leaves, skipping system fields and status', () => {
    const obj = dashboard({ title: 't', panels: [{ id: 1 }], options: {} }, { labels: { a: '1' } }, { ok: true });
    expect(fieldsOf(obj)).toEqual({
      'f:metadata': { 'f:labels': { 'f:a': {} } },
      'f:spec': { 'f:options': {}, 'f:panels': {}, 'f:title': {} },
    });
    expect(fieldsOf(obj, 'status')).toHaveProperty('f:status', { 'f:ok': {} });
  });

  it('sorts keys', () => {
    const spec = fieldsOf({ spec: { b: 1, a: 2 } })['f:spec'] as JsonObject;
    expect(Object.keys(spec)).toEqual(['f:a', 'f:b']);
  });
});

describe('updateManagedFields', () => {
  const created = dashboard({ title: 'One', panels: [{ id: 1 }] }, { labels: { team: 'a' } });
  const afterCreate = write([], undefined, created, 'kubectl-create', T0);

  it('on create gives the writer every field, objects it created marked with "."', () => {
    expect(afterCreate).toEqual([
      entry('kubectl-create', T0, {
        'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } },
        'f:spec': { '.': {}, 'f:panels': {}, 'f:title': {} },
      }),
    ]);
    expect(afterCreate[0]).not.toHaveProperty('subresource');
  });

  it('moves one changed field from its owner to the writer', () => {
    const next = dashboard({ title: 'Two', panels: [{ id: 1 }] }, { labels: { team: 'a' } });
    expect(write(afterCreate, created, next, 'kubectl-edit', T1)).toEqual([
      entry('kubectl-create', T0, {
        'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } },
        'f:spec': { '.': {}, 'f:panels': {} },
      }),
      entry('kubectl-edit', T1, { 'f:spec': { 'f:title': {} } }),
    ]);
  });

  it('records a label-only change under metadata.labels', () => {
    const next = dashboard({ title: 'One', panels: [{ id: 1 }] }, { labels: { team: 'a', env: 'prod' } });
    expect(write(afterCreate, created, next, 'kubectl-label', T1)).toEqual([
      afterCreate[0],
      entry('kubectl-label', T1, { 'f:metadata': { 'f:labels': { 'f:env': {} } } }),
    ]);
  });

  it('drops a removed field from every set, and a manager left with nothing', () => {
    const previous = [
      entry('a', T0, { 'f:spec': { '.': {}, 'f:title': {} } }),
      entry('b', T1, { 'f:spec': { 'f:description': {} } }),
    ];
    const old = dashboard({ title: 'One', description: 'd' });
    const next = dashboard({ title: 'One' });
    // The writer removed a field but set none: no entry for it, and nobody's time changes.
    expect(write(previous, old, next, 'c', T2)).toEqual([previous[0]]);
  });

  it('removal by the owner keeps its time', () => {
    const previous = [entry('a', T0, { 'f:spec': { '.': {}, 'f:title': {}, 'f:description': {} } })];
    const out = write(previous, dashboard({ title: 'One', description: 'd' }), dashboard({ title: 'One' }), 'a', T1);
    expect(out).toEqual([entry('a', T0, { 'f:spec': { '.': {}, 'f:title': {} } })]);
  });

  it('moves ownership back and forth between two managers, oldest entry first', () => {
    const v1 = dashboard({ title: 'One' });
    const m1 = write([], undefined, v1, 'alice', T0);
    const v2 = dashboard({ title: 'Two' });
    const m2 = write(m1, v1, v2, 'bob', T1);
    // alice keeps the spec object itself (a member without children is written as {}).
    expect(m2).toEqual([entry('alice', T0, { 'f:spec': {} }), entry('bob', T1, { 'f:spec': { 'f:title': {} } })]);
    const v3 = dashboard({ title: 'Three' });
    const m3 = write(m2, v2, v3, 'alice', T2);
    expect(m3).toEqual([entry('alice', T2, { 'f:spec': { '.': {}, 'f:title': {} } })]);
  });

  it('a writer that rewrites its own field gets the new time and moves last', () => {
    const previous = [entry('a', T0, { 'f:spec': { 'f:title': {} } }), entry('b', T1, { 'f:spec': { 'f:x': {} } })];
    const out = write(previous, dashboard({ title: 'One', x: 1 }), dashboard({ title: 'Two', x: 1 }), 'a', T2);
    expect(out.map((e) => [e.manager, e.time])).toEqual([
      ['b', T1],
      ['a', T2],
    ]);
  });

  it('returns previous unchanged for a no-op write', () => {
    const same = dashboard({ title: 'One', panels: [{ id: 1 }] }, { labels: { team: 'a' }, resourceVersion: '9', generation: 3 });
    const out = write(afterCreate, created, same, 'someone-else', T2);
    expect(out).toEqual(afterCreate);
    expect(out[0]).toBe(afterCreate[0]);
  });

  it('treats arrays as atomic leaves', () => {
    const old = dashboard({ panels: [{ id: 1, title: 'a' }, { id: 2 }] });
    const next = dashboard({ panels: [{ id: 1, title: 'b' }, { id: 2 }] });
    const previous = [entry('a', T0, { 'f:spec': { '.': {}, 'f:panels': {} } })];
    expect(write(previous, old, next, 'b', T1)).toEqual([
      entry('a', T0, { 'f:spec': {} }),
      entry('b', T1, { 'f:spec': { 'f:panels': {} } }),
    ]);
  });

  it('never records status on the main resource, and does on the status subresource', () => {
    const old = dashboard({ title: 'One' });
    const withStatus = dashboard({ title: 'One' }, {}, { conditions: [], phase: 'ok' });
    expect(write(afterCreate, old, withStatus, 'controller', T1)).toEqual(afterCreate);

    const out = write(afterCreate, old, withStatus, 'controller', T1, 'status');
    expect(out[1]).toEqual(
      entry('controller', T1, { 'f:status': { '.': {}, 'f:conditions': {}, 'f:phase': {} } }, { subresource: 'status' }),
    );
  });

  it('keys Update entries by manager, apiVersion and subresource; Apply entries of the same name lose fields', () => {
    const previous = [
      entry('kubectl', T0, { 'f:spec': { 'f:title': {} } }, { operation: 'Apply' }),
      entry('kubectl', T0, { 'f:spec': { 'f:x': {} } }, { subresource: 'status' }),
    ];
    const out = write(previous, dashboard({ title: 'One', x: 1 }), dashboard({ title: 'Two', x: 1 }), 'kubectl', T1);
    expect(out).toEqual([previous[1], entry('kubectl', T1, { 'f:spec': { 'f:title': {} } })]);
  });

  it('leaves an untracked existing object untracked, like kube', () => {
    expect(write([], dashboard({ title: 'One' }), dashboard({ title: 'Two' }), 'a', T1)).toEqual([]);
  });

  it("never records the registry's own annotations", () => {
    const withSystem = (annotations: Record<string, string>) => dashboard({ title: 'One' }, { annotations });
    const created = write([], undefined, withSystem({ 'svc.app/createdBy': 'user:a' }), 'a', T0);
    expect(created).toEqual([entry('a', T0, { 'f:spec': { '.': {}, 'f:title': {} } })]);
    const stamped = withSystem({ 'svc.app/createdBy': 'user:a', 'svc.app/updatedBy': 'user:b', 'svc.app/updatedTimestamp': T1, note: 'n' });
    expect(write(created, withSystem({ 'svc.app/createdBy': 'user:a' }), stamped, 'b', T1)).toEqual([
      created[0],
      entry('b', T1, { 'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } } }),
    ]);
  });
});

describe('createdFields', () => {
  /** What comparing with nothing gives: every added path that may be recorded, encoded (the general update's way). */
  const compared = (obj: JsonObject, subresource?: string) => {
    const c: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
    compare({}, obj, [], c);
    return encodeFields([...c.added].filter((p) => recordable(JSON.parse(p) as string[], subresource)));
  };
  const objects: JsonObject[] = [
    { apiVersion: 'v1', kind: 'K', metadata: { name: 'x', uid: 'u', labels: { b: '2', a: '1' }, annotations: {} }, spec: { title: 't', panels: [{ id: 1 }], nested: { z: { y: 1 }, a: {} } }, status: { x: 1 } },
    { metadata: { name: 'only-stripped', resourceVersion: '1', generation: 1 }, spec: {} },
    { metadata: 'not an object', spec: 'a leaf', extra: null, list: [] },
    { spec: { 'with.dot': 1, '': 2, 'f:already': { deep: { deeper: [1, 2] } }, __proto__x: true }, status: {} },
    {},
  ];

  it.each(objects.map((o, i) => [i, o]))('is what comparing object %i with nothing gives, on the main resource and the status subresource', (_i, obj) => {
    expect(createdFields(obj)).toEqual(compared(obj));
    expect(JSON.stringify(createdFields(obj))).toBe(JSON.stringify(compared(obj)));
    expect(JSON.stringify(createdFields(obj, 'status'))).toBe(JSON.stringify(compared(obj, 'status')));
  });

  it('marks the objects it records with "." and sorts every level', () => {
    expect(JSON.stringify(createdFields({ spec: { b: 1, a: { d: 1, c: 2 } }, metadata: { labels: { z: '1' }, name: 'n' } }))).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:z":{}}},"f:spec":{".":{},"f:a":{".":{},"f:c":{},"f:d":{}},"f:b":{}}}',
    );
  });
});

describe('managedFieldsFromRequest', () => {
  const stored = [entry('a', T0, { 'f:spec': { 'f:title': {} } })];

  it('takes well-formed entries from the request', () => {
    const requested = [{ manager: 'kubectl', operation: 'Apply', apiVersion, time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }];
    expect(managedFieldsFromRequest(requested, stored)).toEqual(requested);
  });

  it('clears them for [] and [{}]', () => {
    expect(managedFieldsFromRequest([], stored)).toEqual([]);
    expect(managedFieldsFromRequest([{}], stored)).toEqual([]);
  });

  it('keeps the stored ones when the request has none or malformed ones', () => {
    expect(managedFieldsFromRequest(undefined, stored)).toEqual(stored);
    expect(managedFieldsFromRequest(null, stored)).toEqual(stored);
    expect(managedFieldsFromRequest([{ manager: 'x', operation: 'Apply', apiVersion, fieldsType: 'FieldsV2' }], stored)).toEqual(stored);
    expect(managedFieldsFromRequest([{ manager: 'x', operation: 'Merge', apiVersion, fieldsType: 'FieldsV1' }], stored)).toEqual(stored);
    expect(managedFieldsFromRequest([{ manager: 'x', operation: 'Apply', apiVersion: '', fieldsType: 'FieldsV1' }], stored)).toEqual(stored);
    expect(managedFieldsFromRequest([{}, {}], stored)).toEqual(stored);
  });
});

describe('defaultFieldManager', () => {
  it('takes the product before the first "/"', () => {
    expect(defaultFieldManager('kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9')).toBe('kubectl');
    expect(defaultFieldManager('curl')).toBe('curl');
  });

  it('falls back to "unknown"', () => {
    expect(defaultFieldManager(undefined)).toBe('unknown');
    expect(defaultFieldManager('')).toBe('unknown');
    expect(defaultFieldManager('/x')).toBe('unknown');
  });

  it('drops unprintable characters and cuts to 128 bytes', () => {
    expect(defaultFieldManager('my\tagent/1')).toBe('myagent');
    expect(defaultFieldManager('x'.repeat(200))).toBe('x'.repeat(128));
    expect(defaultFieldManager('é'.repeat(100))).toBe('é'.repeat(64));
  });
});

describe('validateFieldManager', () => {
  it('accepts printable names up to 128 bytes', () => {
    expect(validateFieldManager('kubectl-client-side-apply')).toBeUndefined();
    expect(validateFieldManager('x'.repeat(128))).toBeUndefined();
    expect(validateFieldManager('gestionnaire émis')).toBeUndefined();
  });

  it('rejects longer names', () => {
    expect(validateFieldManager('x'.repeat(129))).toBe('Too long: may not be more than 128 bytes');
    expect(validateFieldManager('é'.repeat(65))).toBe('Too long: may not be more than 128 bytes');
  });

  it('rejects unprintable characters with their byte position', () => {
    expect(validateFieldManager('a\nb')).toBe('Invalid value: "a\\nb": invalid character U+000A (at position 1)');
    expect(validateFieldManager('é\u0001')).toBe('Invalid value: "é\\x01": invalid character U+0001 (at position 2)');
  });
});
