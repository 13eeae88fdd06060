import type { Response } from 'express';
import { JSONPath } from 'jsonpath-plus';
import type { KindRegistration, ListMeta, ObjectMeta, PrinterColumn, Resource, ResourceList } from '../meta';
import { type IncludeObject, type Negotiated, TABLE_CONTENT_TYPE } from './negotiate';
import { sendJson } from './send-json';

/**
 * Server-side printing: a kind's objects as a meta.k8s.io/v1 `Table`, the way kube-apiserver prints custom
 * resources (apiextensions' tableconvertor): a Name column, the kind's printer columns evaluated by JSONPath,
 * then Age. Dates are rendered as ages on the server, so clients print cells as they come.
 */

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
}

export interface TableRow {
  cells: unknown[];
  /** Absent with includeObject=None. */
  object?: PartialObjectMetadata | Resource;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** Empty in watch events after the first, as kube-apiserver sends them (clients reuse the last columns). */
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

// The descriptions kube-apiserver gives these columns (ObjectMeta's field docs).
const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request a name to be generated automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.';
const AGE_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.';

/**
 * kube's `duration.HumanDuration`: about two significant figures, as `kubectl get` prints ages.
 *
 * @example
 *   humanDuration(45_000)        // "45s"
 *   humanDuration(312_000)       // "5m12s"
 *   humanDuration(11_040_000)    // "3h4m"
 *   humanDuration(183_600_000)   // "2d3h"
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** An RFC 3339 timestamp as an age at `now`; `<unknown>` when unset, `<invalid>` when unparsable (as kube). */
export function age(timestamp: unknown, now: Date): string {
  if (timestamp === undefined || timestamp === null || timestamp === '') return '<unknown>';
  const t = typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  return Number.isNaN(t) ? '<invalid>' : humanDuration(now.getTime() - t);
}

/** A CRD-style JSONPath (`.spec.title`, `{.spec.title}`) as jsonpath-plus takes it (`$.spec.title`). */
export function toJsonPathPlus(path: string): string {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) return p;
  return p.startsWith('.') || p.startsWith('[') ? `$${p}` : `$.${p}`;
}

/** The first value `path` finds in `obj`, or undefined. Script filters are off: paths come from code only. */
export function firstJsonPathValue(obj: unknown, path: string): unknown {
  const found = JSONPath({ path: toJsonPathPlus(path), json: obj as object, wrap: true, eval: false }) as unknown[];
  return found.length > 0 ? found[0] : undefined;
}

/** One printer column's cell, typed as kube's `cellForJSONValue` types it; null when absent or of another type. */
export function cellValue(column: PrinterColumn, obj: unknown, now: Date): unknown {
  const value = firstJsonPathValue(obj, column.jsonPath);
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'string':
      // kube prints non-strings through its JSONPath printer: numbers and booleans as text, the rest as JSON.
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? age(value, now) : null;
    default:
      return null;
  }
}

/** Name, the kind's printer columns, Age. */
export function columnDefinitions(kind: KindRegistration): TableColumnDefinition[] {
  return [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    ...(kind.printerColumns ?? []).map((c) => ({
      name: c.name,
      type: c.type,
      format: '',
      description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    })),
    { name: 'Age', type: 'date', format: '', description: AGE_DESCRIPTION, priority: 0 },
  ];
}

function rowObject(obj: Resource, includeObject: IncludeObject): TableRow['object'] {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** One row: the object's cells and, as includeObject says, its metadata or the object itself. */
export function toTableRow(kind: KindRegistration, obj: Resource, includeObject: IncludeObject, now = new Date()): TableRow {
  const cells = [obj.metadata?.name ?? '', ...(kind.printerColumns ?? []).map((c) => cellValue(c, obj, now)), age(obj.metadata?.creationTimestamp, now)];
  const object = rowObject(obj, includeObject);
  return object ? { cells, object } : { cells };
}

/**
 * A list (or one object, as a one-row table) as a Table.
 *
 * @example
 *   toTable(playlistKind, list.items, list.metadata, 'Metadata')
 *   // { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '12' },
 *   //   columnDefinitions: [Name, Title, Interval, Age], rows: [{ cells: ['morning', 'Morning', '5m', '3h4m'], object: {...} }] }
 */
export function toTable(kind: KindRegistration, items: readonly Resource[], listMeta: Partial<ListMeta> | undefined, includeObject: IncludeObject, now = new Date()): Table {
  const metadata: Table['metadata'] = {};
  if (listMeta?.resourceVersion !== undefined) metadata.resourceVersion = listMeta.resourceVersion;
  if (listMeta?.continue) metadata.continue = listMeta.continue;
  if (listMeta?.remainingItemCount !== undefined) metadata.remainingItemCount = listMeta.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: columnDefinitions(kind),
    rows: items.map((item) => toTableRow(kind, item, includeObject, now)),
  };
}

/**
 * One object as a one-row Table carrying the object's resourceVersion: the answer to a single GET, and a watch
 * event's object. `noHeaders` leaves out the column definitions (watch events after the first).
 */
export function toTableRowObject(kind: KindRegistration, obj: Resource, includeObject: IncludeObject, opts: { noHeaders?: boolean; now?: Date } = {}): Table {
  const table = toTable(kind, [obj], { resourceVersion: obj.metadata?.resourceVersion }, includeObject, opts.now);
  if (opts.noHeaders) table.columnDefinitions = [];
  return table;
}

/**
 * The `render(event)` of a watch stream asked for Tables: each event's object becomes a one-row Table; the first
 * carries the column definitions, later ones do not (kube-apiserver's watch encoder does the same, and kubectl
 * reuses the last columns). A `Status` passes through unchanged; a BOOKMARK becomes a row-less Table with its
 * resourceVersion. The event's object is not mutated. One renderer per watch: it remembers the first event.
 *
 * @example
 *   if (isWatchRequest(req)) {
 *     const how = negotiate(req);
 *     return serveWatch(req, res, { hub, registry, kind, ctx, render: how.kind === 'table' ? tableWatchRenderer(kind, how.includeObject) : undefined });
 *   }
 */
export function tableWatchRenderer(kind: KindRegistration, includeObject: IncludeObject, clock: () => Date = () => new Date()): (event: { type: string; object: unknown }) => unknown {
  let headersSent = false;
  return ({ type, object }) => {
    const o = object as Partial<Resource> | null;
    if (!o || typeof o !== 'object' || o.kind === 'Status') return object;
    if (type === 'BOOKMARK') {
      return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: o.metadata?.resourceVersion }, columnDefinitions: [], rows: [] } satisfies Table;
    }
    const table = toTableRowObject(kind, o as Resource, includeObject, { noHeaders: headersSent, now: clock() });
    headersSent = true;
    return table;
  };
}

/**
 * Sends a GET's answer as negotiated: the object or list as JSON, or as a Table.
 *
 * @example
 *   const how = negotiate(req);
 *   sendNegotiated(res, how, kind, await registry.list(ctx, kind, opts));
 */
export function sendNegotiated(res: Response, how: Negotiated, kind: KindRegistration, body: Resource | ResourceList): void {
  if (how.kind === 'json') {
    sendJson(res, body);
    return;
  }
  const table = 'items' in body ? toTable(kind, body.items, body.metadata, how.includeObject) : toTableRowObject(kind, body, how.includeObject);
  // The exact Content-Type: `res.type()`/`res.json()` would append `; charset=utf-8` to a media type with
  // parameters; kube-apiserver writes it bare, and clients match on it.
  sendJson(res, table, TABLE_CONTENT_TYPE);
}
