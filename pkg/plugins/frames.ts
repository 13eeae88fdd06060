import type { Field, Frame } from './types';

/**
 * The data-frame JSON of the anchor's SDK (anchor-breadth §3.4, `data/frame_json.go`): what /api/ds/query answers
 * for each frame a plugin made. Plugins build {@link Frame}s with plain values; only this file knows the wire shape
 * (column-major values, times in epoch ms with `nanos` for the rest, NaN/±Inf as null listed in `entities`).
 */

export interface FieldSchemaJSON {
  name?: string;
  type: Field['type'];
  typeInfo: { frame: string; nullable?: true };
  labels?: Record<string, string>;
  config?: Record<string, unknown>;
}

/** Per field: the rows whose value was NaN, +Inf or −Inf (written as null). */
export interface FieldEntities {
  NaN?: number[];
  Inf?: number[];
  NegInf?: number[];
}

export interface FrameJSON {
  schema: { name?: string; refId: string; meta?: Record<string, unknown>; fields: FieldSchemaJSON[] };
  data: { values: unknown[][]; entities?: (FieldEntities | null)[]; nanos?: (number[] | null)[] };
}

const isEmpty = (o: Record<string, unknown> | undefined): boolean => !o || Object.keys(o).length === 0;

/** One time value: whole epoch ms, and the nanoseconds below the millisecond (0–999999). */
function splitTime(v: unknown): { ms: unknown; nanos: number } {
  if (typeof v !== 'number' || !Number.isFinite(v)) return { ms: null, nanos: 0 };
  const ms = Math.floor(v);
  // Rounded to whole nanoseconds; a fraction that rounds up to the next millisecond carries over.
  const nanos = Math.round((v - ms) * 1e6);
  return nanos >= 1e6 ? { ms: ms + 1, nanos: 0 } : { ms, nanos };
}

function encodeTimes(values: readonly unknown[]): { values: unknown[]; nanos: number[] | null } {
  const out: unknown[] = new Array(values.length);
  const nanos: number[] = new Array(values.length);
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const t = splitTime(values[i]);
    out[i] = t.ms;
    nanos[i] = t.nanos;
    if (t.nanos !== 0) any = true;
  }
  return { values: out, nanos: any ? nanos : null };
}

function encodeValues(values: readonly unknown[]): { values: unknown[]; entities: FieldEntities | null } {
  const out: unknown[] = new Array(values.length);
  let entities: FieldEntities | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'number' && !Number.isFinite(v)) {
      entities ??= {};
      const key = Number.isNaN(v) ? 'NaN' : v > 0 ? 'Inf' : 'NegInf';
      (entities[key] ??= []).push(i);
      out[i] = null;
    } else {
      out[i] = v === undefined ? null : v;
    }
  }
  return { values: out, entities };
}

/**
 * A frame in the SDK's JSON. `schema.refId` is always set (the frame's own, else `refId`); `name`, `meta`, a field's
 * `labels` and `config` are left out when empty; `entities` and `nanos` only when some field needs them.
 *
 * @example
 *   frameToJSON({ fields: [{ name: 'time', type: 'time', frameType: 'time.Time', values: [1.5] }] }, 'A');
 *   // { schema: { refId: 'A', fields: [{ name: 'time', type: 'time', typeInfo: { frame: 'time.Time' } }] },
 *   //   data: { values: [[1]], nanos: [[500000]] } }
 */
export function frameToJSON(frame: Frame, refId: string): FrameJSON {
  const fields: FieldSchemaJSON[] = [];
  const values: unknown[][] = [];
  const entities: (FieldEntities | null)[] = [];
  const nanos: (number[] | null)[] = [];
  for (const f of frame.fields) {
    const schema: FieldSchemaJSON = { type: f.type, typeInfo: { frame: f.frameType } };
    if (f.name !== '') schema.name = f.name;
    if (f.nullable) schema.typeInfo.nullable = true;
    if (!isEmpty(f.labels)) schema.labels = f.labels;
    if (!isEmpty(f.config)) schema.config = f.config;
    fields.push(schema);
    if (f.type === 'time') {
      const t = encodeTimes(f.values);
      values.push(t.values);
      nanos.push(t.nanos);
      entities.push(null);
    } else {
      const v = encodeValues(f.values);
      values.push(v.values);
      entities.push(v.entities);
      nanos.push(null);
    }
  }
  const json: FrameJSON = { schema: { refId: frame.refId || refId, fields }, data: { values } };
  if (frame.name) json.schema = { name: frame.name, ...json.schema };
  if (!isEmpty(frame.meta)) json.schema.meta = frame.meta;
  if (entities.some((e) => e !== null)) json.data.entities = entities;
  if (nanos.some((n) => n !== null)) json.data.nanos = nanos;
  return json;
}
