/**
 * PostgreSQL column types → data-frame fields (anchor-breadth §3.4, §3.7). The plugin reads every value in
 * PostgreSQL's text format (its pool parses nothing), so one function per type decides what a field holds: the
 * anchor's mapping (int2/int4/int8 → int16/int32/int64, float4/float8/numeric → float32/float64, timestamps and
 * dates → time, json → json.RawMessage, everything else → string), every field nullable as in the anchor.
 */
import type { Field, FieldType } from '../types';

/** One column of a result: its name and the type OID of PostgreSQL's row description. */
export interface Column {
  name: string;
  dataTypeID: number;
}

interface ColumnKind {
  type: FieldType;
  frameType: string;
  parse(text: string): unknown;
}

const number = (text: string) => Number(text);
const asString = (text: string) => text;

const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?( BC)?$/;

/**
 * Epoch milliseconds (fractional below a millisecond) of a PostgreSQL timestamp, timestamptz or date in the ISO
 * DateStyle; a value without offset is UTC, as the anchor reads it. null for `infinity` and what does not parse.
 *
 * @example parseTimestamp('2024-01-02 03:04:05.000123+01') // Date.UTC(2024, 0, 2, 2, 4, 5) + 0.123
 */
export function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text.endsWith('Z') ? `${text.slice(0, -1)}+00` : text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', sign, oh = '0', om = '0', os = '0', bc] = m;
  const year = bc ? 1 - Number(y) : Number(y);
  const date = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  date.setUTCFullYear(year);
  const offset = sign ? (sign === '-' ? -1 : 1) * ((Number(oh) * 60 + Number(om)) * 60 + Number(os)) * 1000 : 0;
  const fraction = frac ? Number(`0.${frac}`) * 1000 : 0;
  return date.getTime() - offset + fraction;
}

const TIME: ColumnKind = { type: 'time', frameType: 'time.Time', parse: parseTimestamp };

/** Type OIDs of pg_type (stable across PostgreSQL versions). */
const KINDS: Readonly<Record<number, ColumnKind>> = {
  16: { type: 'boolean', frameType: 'bool', parse: (t) => t === 't' },
  20: { type: 'number', frameType: 'int64', parse: number },
  21: { type: 'number', frameType: 'int16', parse: number },
  23: { type: 'number', frameType: 'int32', parse: number },
  26: { type: 'number', frameType: 'uint32', parse: number },
  700: { type: 'number', frameType: 'float32', parse: number },
  701: { type: 'number', frameType: 'float64', parse: number },
  1700: { type: 'number', frameType: 'float64', parse: number },
  1082: TIME,
  1114: TIME,
  1184: TIME,
  114: { type: 'other', frameType: 'json.RawMessage', parse: (t) => JSON.parse(t) as unknown },
  3802: { type: 'other', frameType: 'json.RawMessage', parse: (t) => JSON.parse(t) as unknown },
};
const TEXT: ColumnKind = { type: 'string', frameType: 'string', parse: asString };

/** PostgreSQL's text-like types: the first of them is a time series' metric column (anchor: TEXT, VARCHAR, CHAR, UNKNOWN). */
const TEXT_LIKE = new Set([25, 1043, 1042, 18, 19, 705]);

export function isTextLike(column: Column): boolean {
  return TEXT_LIKE.has(column.dataTypeID);
}

/**
 * A nullable field of a result column with its values parsed from PostgreSQL's text format.
 *
 * @example columnField({ name: 'v', dataTypeID: 701 }, ['1.5', null, 'NaN']) // values [1.5, null, NaN], float64
 */
export function columnField(column: Column, texts: ReadonlyArray<string | null>): Field {
  const kind = KINDS[column.dataTypeID] ?? TEXT;
  return {
    name: column.name,
    type: kind.type,
    frameType: kind.frameType,
    nullable: true,
    values: texts.map((t) => (t === null ? null : kind.parse(t))),
  };
}
