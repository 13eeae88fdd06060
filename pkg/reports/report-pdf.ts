import { type PDFFont, PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { ReportPanel } from './report-content';

/** One dashboard of a report, as its pages show it. */
export interface PdfDashboard {
  title: string;
  /** The range its panels were queried over, epoch ms. */
  from: number;
  to: number;
  timeZone: string;
  panels: readonly ReportPanel[];
  /** Its address, printed under the title. */
  url?: string;
}

export interface PdfOptions {
  orientation: 'portrait' | 'landscape';
  /** `grid`: two panels a row; `simple`: one panel a row. */
  layout: 'grid' | 'simple';
  /** The document's title (its metadata), e.g. the report's name. */
  title: string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const PANEL_HEIGHT = 220;
const GAP = 12;
const INK = rgb(0.13, 0.15, 0.18);
const MUTED = rgb(0.45, 0.47, 0.5);
const LINE = rgb(0.8, 0.82, 0.85);
const COLORS = [rgb(0.2, 0.45, 0.8), rgb(0.85, 0.4, 0.1), rgb(0.2, 0.6, 0.3), rgb(0.6, 0.3, 0.7), rgb(0.8, 0.2, 0.3)];

/**
 * The standard fonts write WinAnsi only: any other character is drawn as `?` rather than failing the whole report
 * (a dashboard title in another script still gets a report).
 */
export const winAnsi = (s: string): string => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** `s` cut to fit `width` points at `size`, with an ellipsis. */
function fit(font: PDFFont, s: string, size: number, width: number): string {
  let t = winAnsi(s);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > width) t = t.slice(0, -1);
  return `${t}...`;
}

/** An instant in the report's time zone: `2026-11-26 08:00:00`. */
export function formatTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function drawTable(page: PDFPage, font: PDFFont, bold: PDFFont, box: Box, table: NonNullable<ReportPanel['table']>): void {
  const size = 8;
  const rowH = 11;
  const colW = box.w / Math.max(1, table.columns.length);
  let y = box.y + box.h - rowH;
  table.columns.forEach((c, i) => page.drawText(fit(bold, c, size, colW - 4), { x: box.x + i * colW, y, size, font: bold, color: INK }));
  page.drawLine({ start: { x: box.x, y: y - 3 }, end: { x: box.x + box.w, y: y - 3 }, thickness: 0.5, color: LINE });
  for (const row of table.rows) {
    y -= rowH;
    if (y < box.y + rowH) break;
    row.forEach((v, i) => page.drawText(fit(font, v, size, colW - 4), { x: box.x + i * colW, y, size, font, color: INK }));
  }
  const shown = Math.min(table.rows.length, Math.floor((box.h - rowH) / rowH) - 1);
  if (table.total > shown) page.drawText(`${table.total - shown} more rows`, { x: box.x, y: box.y, size: 7, font, color: MUTED });
}

function drawChart(page: PDFPage, font: PDFFont, box: Box, series: NonNullable<ReportPanel['series']>, timeZone: string): void {
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  const legendH = 10 * Math.min(series.length, 4);
  const plot = { x: box.x + 40, y: box.y + 14 + legendH, w: box.w - 44, h: box.h - 18 - legendH };
  page.drawRectangle({ x: plot.x, y: plot.y, width: plot.w, height: plot.h, borderColor: LINE, borderWidth: 0.5 });
  const label = (v: number) => String(Math.round(v * 100) / 100);
  page.drawText(fit(font, label(y1), 7, 38), { x: box.x, y: plot.y + plot.h - 7, size: 7, font, color: MUTED });
  page.drawText(fit(font, label(y0), 7, 38), { x: box.x, y: plot.y, size: 7, font, color: MUTED });
  page.drawText(formatTime(x0, timeZone), { x: plot.x, y: plot.y - 9, size: 6, font, color: MUTED });
  const last = formatTime(x1, timeZone);
  page.drawText(last, { x: plot.x + plot.w - font.widthOfTextAtSize(last, 6), y: plot.y - 9, size: 6, font, color: MUTED });
  const px = (t: number) => plot.x + (x1 === x0 ? plot.w / 2 : ((t - x0) / (x1 - x0)) * plot.w);
  const py = (v: number) => plot.y + ((v - y0) / (y1 - y0)) * plot.h;
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    // At most ~2 points per point of width: more draws nothing more.
    const step = Math.max(1, Math.floor(s.points.length / (plot.w * 2)));
    for (let k = step; k < s.points.length; k += step) {
      const [a, b] = [s.points[k - step]!, s.points[k]!];
      page.drawLine({ start: { x: px(a[0]), y: py(a[1]) }, end: { x: px(b[0]), y: py(b[1]) }, thickness: 0.8, color });
    }
    if (i < 4) {
      const y = box.y + 2 + (Math.min(series.length, 4) - 1 - i) * 10;
      page.drawRectangle({ x: plot.x, y: y + 1, width: 8, height: 4, color });
      const lastValue = s.points.at(-1)?.[1];
      page.drawText(fit(font, `${s.name}${lastValue === undefined ? '' : `  last ${label(lastValue)}`}`, 7, plot.w - 12), { x: plot.x + 12, y, size: 7, font, color: INK });
    }
  });
}

/**
 * A report's PDF: for each dashboard, a page (and more as its panels need) with its title, its time range in the
 * report's time zone and each panel in a box, as a line chart of its series or a table of its rows. Built with
 * pdf-lib's standard fonts, so nothing is read from disk.
 *
 * @example const pdf = await renderReportPdf([{ title: 'API', from, to, timeZone: 'UTC', panels }], { orientation: 'landscape', layout: 'grid', title: 'Weekly' });
 */
export async function renderReportPdf(dashboards: readonly PdfDashboard[], opts: PdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(winAnsi(opts.title));
  doc.setProducer('svc reporting');
  doc.setCreator('svc');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [w, h] = opts.orientation === 'landscape' ? [A4[1], A4[0]] : A4;
  const columns = opts.layout === 'grid' ? 2 : 1;
  const colW = (w - 2 * MARGIN - (columns - 1) * GAP) / columns;
  for (const d of dashboards) {
    let page = doc.addPage([w, h]);
    let y = h - MARGIN - 20;
    page.drawText(fit(bold, d.title, 20, w - 2 * MARGIN), { x: MARGIN, y, size: 20, font: bold, color: INK });
    y -= 16;
    page.drawText(`${formatTime(d.from, d.timeZone)} to ${formatTime(d.to, d.timeZone)} (${winAnsi(d.timeZone)})`, { x: MARGIN, y, size: 10, font, color: MUTED });
    if (d.url) {
      y -= 12;
      page.drawText(fit(font, d.url, 8, w - 2 * MARGIN), { x: MARGIN, y, size: 8, font, color: MUTED });
    }
    y -= GAP;
    if (!d.panels.length) page.drawText('This dashboard has no panels.', { x: MARGIN, y: y - 12, size: 10, font, color: MUTED });
    for (let i = 0; i < d.panels.length; i += columns) {
      if (y - PANEL_HEIGHT < MARGIN) {
        page = doc.addPage([w, h]);
        y = h - MARGIN;
      }
      d.panels.slice(i, i + columns).forEach((panel, c) => {
        const box = { x: MARGIN + c * (colW + GAP), y: y - PANEL_HEIGHT, w: colW, h: PANEL_HEIGHT };
        page.drawRectangle({ x: box.x, y: box.y, width: box.w, height: box.h, borderColor: LINE, borderWidth: 0.75 });
        page.drawText(fit(bold, panel.title || 'Panel', 11, box.w - 12), { x: box.x + 6, y: box.y + box.h - 16, size: 11, font: bold, color: INK });
        const inner = { x: box.x + 6, y: box.y + 6, w: box.w - 12, h: box.h - 28 };
        if (panel.error !== undefined) page.drawText(fit(font, panel.error, 9, inner.w), { x: inner.x, y: inner.y + inner.h - 12, size: 9, font, color: rgb(0.7, 0.1, 0.1) });
        else if (panel.series) drawChart(page, font, inner, panel.series.filter((s) => s.points.length > 0), d.timeZone);
        else if (panel.table) drawTable(page, font, bold, inner, panel.table);
      });
      y -= PANEL_HEIGHT + GAP;
    }
  }
  return doc.save();
}
