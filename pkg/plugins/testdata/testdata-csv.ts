import type { Field, Frame } from '../types';

/**
 * CSV into a data frame as the anchor's testdata csv_data.go: the first line names the fields (labels may follow a
 * name: `value{host="a"}`), each column's type is inferred, columns named like a time become time fields.
 */

/** RFC 4180 rows: quoted cells may hold commas, newlines and doubled quotes; CRLF or LF ends a row. */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  // Blank lines are no rows.
  return rows.filter((r) => !(r.length === 1 && r[0]!.trim() === ''));
}

/** `value{host="a", dc=b}` → the name and its labels. */
export function parseHeaderCell(cell: string): { name: string; labels?: Record<string, string> } {
  const m = /^([^{]*)\{(.*)\}\s*$/.exec(cell.trim());
  if (!m) return { name: cell.trim() };
  const labels = parseLabels(`{${m[2]}}`);
  return { name: m[1]!.trim(), ...(Object.keys(labels).length ? { labels } : {}) };
}

/** `{k="v", k2=v2}` (braces optional) → labels. */
export function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = text.trim().replace(/^\{/, '').replace(/\}$/, '');
  for (const m of inner.matchAll(/([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*))/g)) {
    out[m[1]!] = (m[2] ?? m[3] ?? '').trim();
  }
  return out;
}

const BOOL = /^(t|f|true|false)$/i;
const INT = /^[+-]?[0-9]+$/;
const FLOAT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const NON_FINITE = /^([+-]?inf(inity)?|nan)$/i;

const isNull = (v: string) => v === '' || v === 'null';

function toFloat(v: string): number {
  if (/^nan$/i.test(v)) return NaN;
  if (NON_FINITE.test(v)) return v.startsWith('-') ? -Infinity : Infinity;
  return Number(v);
}

/**
 * A column's values typed as the anchor infers them: bool when the first value is T/F/TRUE/FALSE (any case), else
 * int64 when every non-empty value is an integer, float64 when every one is a number, else string. `""` and `null`
 * are null; every field is nullable.
 */
export function inferField(name: string, cells: readonly string[]): Field {
  const present = cells.filter((c) => !isNull(c));
  if (cells.length > 0 && BOOL.test(cells[0]!)) {
    return { name, type: 'boolean', frameType: 'bool', nullable: true, values: cells.map((c) => (isNull(c) ? null : /^(t|true)$/i.test(c))) };
  }
  if (present.every((c) => INT.test(c) && Number.isSafeInteger(Number(c))) && present.length > 0) {
    return { name, type: 'number', frameType: 'int64', nullable: true, values: cells.map((c) => (isNull(c) ? null : Number(c))) };
  }
  if (present.every((c) => FLOAT.test(c) || NON_FINITE.test(c)) && present.length > 0) {
    return { name, type: 'number', frameType: 'float64', nullable: true, values: cells.map((c) => (isNull(c) ? null : toFloat(c))) };
  }
  return { name, type: 'string', frameType: 'string', nullable: true, values: cells.map((c) => (isNull(c) ? null : c)) };
}

/** RFC 3339 (a date, `T`, a time, a zone or none: read as UTC). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** A field named like a time, as a time field: numbers are epoch ms, strings RFC 3339; unchanged when nothing converts. */
function asTime(field: Field): Field {
  const values = field.values.map((v) => {
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    // A column of dates and epochs mixed was inferred as text: its epochs still count.
    if (typeof v === 'string' && /^[0-9]{1,16}$/.test(v)) return Number(v);
    if (typeof v === 'string' && RFC3339.test(v)) {
      const zoned = /([Zz]|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`;
      const t = Date.parse(zoned.replace(' ', 'T'));
      return Number.isNaN(t) ? null : t;
    }
    return null;
  });
  if (!values.some((v) => v !== null)) return field;
  return { ...field, type: 'time', frameType: 'time.Time', nullable: true, values };
}

/**
 * CSV text as one frame (undefined when there is no header line): named `name`, columns padded with nulls to the
 * longest.
 *
 * @example csvToFrame('time,value\n1700000000000,1.5', 'A')?.fields.map((f) => f.type) // ['time', 'number']
 */
export function csvToFrame(text: string, name: string): Frame | undefined {
  const rows = parseCsvRows(text);
  if (rows.length === 0) return undefined;
  const header = rows[0]!.map(parseHeaderCell);
  const body = rows.slice(1);
  const width = Math.max(header.length, ...body.map((r) => r.length));
  const fields: Field[] = [];
  for (let col = 0; col < width; col++) {
    const h = header[col] ?? { name: '' };
    const cells = body.map((r) => (r[col] ?? '').trim());
    let field = inferField(h.name, cells);
    if (/time/i.test(h.name)) field = asTime(field);
    if (h.labels) field.labels = h.labels;
    fields.push(field);
  }
  return { ...(name ? { name } : {}), fields };
}
