import type { FrameJSON } from '../plugins/frames';

/**
 * What a report shows of one panel, from the data frames its queries answered: a chart of the time series (frames
 * with a time field and number fields), else a table of the first frame's rows. Pure.
 */

/** At most this many rows of a table are drawn (a report is a summary; the CSV attachment has them all). */
export const MAX_TABLE_ROWS = 25;

export interface PanelTable {
  columns: string[];
  rows: string[][];
  /** Rows the frame had in all (more than `rows` when cut). */
  total: number;
}

export interface PanelSeries {
  name: string;
  /** [epoch ms, value] pairs, in time order. */
  points: [number, number][];
}

/** One panel of a report: its title and what it shows (an error when its queries failed). */
export interface ReportPanel {
  title: string;
  error?: string;
  series?: PanelSeries[];
  table?: PanelTable;
}

const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : typeof v === 'string' ? v : JSON.stringify(v));

/** A frame's name for one of its value fields: its display name, frame name or field name, with labels. */
function seriesName(frame: FrameJSON, i: number): string {
  const f = frame.schema.fields[i]!;
  const labels = f.labels && Object.keys(f.labels).length ? ` {${Object.entries(f.labels).map(([k, v]) => `${k}=${v}`).join(', ')}}` : '';
  return `${(f.config as { displayNameFromDS?: string } | undefined)?.displayNameFromDS ?? (frame.schema.name || f.name || '')}${labels}`;
}

/** The time series of the frames: each number field of a frame that has a time field. */
export function seriesOf(frames: readonly FrameJSON[]): PanelSeries[] {
  const out: PanelSeries[] = [];
  for (const frame of frames) {
    const fields = frame.schema.fields;
    const t = fields.findIndex((f) => f.type === 'time');
    if (t < 0) continue;
    fields.forEach((f, i) => {
      if (i === t || f.type !== 'number') return;
      const times = frame.data.values[t] ?? [];
      const values = frame.data.values[i] ?? [];
      const points: [number, number][] = [];
      for (let k = 0; k < times.length; k++) {
        const [x, y] = [times[k], values[k]];
        if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(y)) points.push([x, y]);
      }
      out.push({ name: seriesName(frame, i), points: points.sort((a, b) => a[0] - b[0]) });
    });
  }
  return out;
}

/** The first frame as a table: its fields as columns, its first {@link MAX_TABLE_ROWS} rows (times as ISO dates). */
export function tableOf(frames: readonly FrameJSON[]): PanelTable | undefined {
  const frame = frames.find((f) => f.schema.fields.length > 0);
  if (!frame) return undefined;
  const fields = frame.schema.fields;
  const total = Math.max(0, ...frame.data.values.map((v) => v.length));
  const rows: string[][] = [];
  for (let r = 0; r < Math.min(total, MAX_TABLE_ROWS); r++) {
    rows.push(fields.map((f, i) => {
      const v = frame.data.values[i]?.[r];
      return f.type === 'time' && typeof v === 'number' ? new Date(v).toISOString().replace('.000Z', 'Z') : cell(v);
    }));
  }
  return { columns: fields.map((f) => f.name ?? ''), rows, total };
}

/** Every row of every frame as CSV (RFC 4180), for the report's CSV attachment of a panel. */
export function csvOf(frames: readonly FrameJSON[]): string {
  const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const lines: string[] = [];
  for (const frame of frames) {
    const fields = frame.schema.fields;
    lines.push(fields.map((f) => quote(f.name ?? '')).join(','));
    const total = Math.max(0, ...frame.data.values.map((v) => v.length));
    for (let r = 0; r < total; r++) lines.push(fields.map((f, i) => {
      const v = frame.data.values[i]?.[r];
      return quote(f.type === 'time' && typeof v === 'number' ? new Date(v).toISOString() : v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    }).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * What a panel shows: a chart when the panel is a time series one (or not a table) and its frames hold series,
 * else a table.
 */
export function panelContent(title: string, type: string, frames: readonly FrameJSON[], error?: string): ReportPanel {
  if (error) return { title, error };
  const series = type === 'table' ? [] : seriesOf(frames);
  if (series.some((s) => s.points.length > 0)) return { title, series };
  const table = tableOf(frames);
  return table ? { title, table } : { title, error: 'No data' };
}
