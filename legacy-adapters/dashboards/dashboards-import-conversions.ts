import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import type { JsonObject } from '../../pkg/meta';
import { badRequestData, isV2Dashboard, v2NotSupported } from './dashboards-conversions';

const inputSchema = z.object({
  name: z.string().describe('the `name` of an entry of the dashboard `__inputs` (`*` matches any name of its type)'),
  type: z.string().describe('its `type`, e.g. `datasource`'),
  pluginId: z.string().optional(),
  value: z.string().describe('what `${<name>}` becomes in every string of the dashboard'),
});

/** The body of `POST /api/dashboards/import` (the anchor's ImportDashboardRequest). */
export const importDashboardSchema = z.object({
  dashboard: z.record(z.string(), z.unknown()).nullish().describe('the dashboard JSON, with its `__inputs`, `__requires` and `__elements` as exported'),
  pluginId: z.string().optional().describe('not supported: no plugin here ships dashboards'),
  path: z.string().optional().describe('echoed in the answer'),
  overwrite: z.boolean().optional().describe('true replaces a dashboard with the same uid'),
  inputs: z.array(inputSchema).optional(),
  folderId: z.int().optional().describe('deprecated: use folderUid'),
  folderUid: z.string().optional().describe('the folder to import into (and to create missing library panels in); absent = the root'),
});

export type ImportDashboardRequest = z.infer<typeof importDashboardSchema>;
type ImportInput = z.infer<typeof inputSchema>;

/** The anchor's 400 for an `__inputs` entry no input answers. */
export const inputMissing = (name: string) => StatusError.badRequest(`Dashboard input variable: ${name} missing from import command`);

/**
 * The import body, bound: 400 `bad request data` when it cannot be, 422 `Dashboard must be set` without a
 * dashboard, the v2 hint as `POST /api/dashboards/db` gives it.
 */
export function parseImportRequest(body: unknown): ImportDashboardRequest & { dashboard: JsonObject } {
  const parsed = importDashboardSchema.safeParse(body);
  if (!parsed.success) throw badRequestData();
  const req = parsed.data;
  if (req.pluginId) throw StatusError.badRequest('Importing a dashboard from a plugin is not supported: send the dashboard JSON');
  // The anchor's 422; reason BadRequest, as the area's wording of Invalid would turn it into a 400.
  if (!req.dashboard) throw new StatusError(422, 'BadRequest', 'Dashboard must be set');
  if (isV2Dashboard(req.dashboard)) throw v2NotSupported();
  return { ...req, dashboard: req.dashboard as JsonObject };
}

const PLACEHOLDER = /\$\{.+?\}/g;

/**
 * The dashboard with its `__inputs` answered (the anchor's template evaluation): every `__inputs` entry needs an
 * input of its type with its name (or `*`), else 400; then each `${<name>}` in any string becomes the input's value
 * (other `${...}`, such as the dashboard's own variables, stay), and `__inputs` is dropped at every level.
 *
 * @example
 *   evaluateTemplate({ __inputs: [{ name: 'DS_PROM', type: 'datasource' }], panels: [{ datasource: '${DS_PROM}' }] },
 *     [{ name: 'DS_PROM', type: 'datasource', value: 'prom-uid' }])
 *   // { panels: [{ datasource: 'prom-uid' }] }
 */
export function evaluateTemplate(dashboard: JsonObject, inputs: readonly ImportInput[]): JsonObject {
  const variables = new Map<string, string>();
  const declared = Array.isArray(dashboard.__inputs) ? dashboard.__inputs : [];
  for (const def of declared) {
    const { name, type } = (typeof def === 'object' && def !== null ? def : {}) as { name?: unknown; type?: unknown };
    const [n, t] = [typeof name === 'string' ? name : '', typeof type === 'string' ? type : ''];
    const input = inputs.find((i) => i.type === t && (i.name === n || i.name === '*'));
    if (!input) throw inputMissing(n);
    variables.set(`\${${n}}`, input.value);
  }
  const evaluate = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(PLACEHOLDER, (m) => variables.get(m) ?? m);
    if (Array.isArray(v)) return v.map(evaluate);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).filter(([k]) => k !== '__inputs').map(([k, x]) => [k, evaluate(x)]));
    }
    return v;
  };
  return evaluate(dashboard) as JsonObject;
}

/** A library panel an import creates: from the dashboard's `__elements`, keyed by its uid. */
export interface ImportedElement {
  uid: string;
  name: string;
  kind: number;
  model: JsonObject;
}

export const LibraryPanelHeader = {
  uidMissing: 'library panel header is missing required property uid',
  nameMissing: 'library panel header is missing required property name',
} as const;

/**
 * The library panels the dashboard's panels (and its rows' panels) name, in order, once each: their uid, and what
 * `__elements` holds of them (to create the missing ones). A `libraryPanel` without a uid is 400.
 *
 * @example libraryPanelsOf({ panels: [{ libraryPanel: { uid: 'cpu' } }], __elements: { cpu: { name: 'CPU', kind: 1, model: {} } } })
 *   // [{ uid: 'cpu', element: { name: 'CPU', kind: 1, model: {} } }]
 */
export function libraryPanelsOf(dashboard: JsonObject): { uid: string; element?: ImportedElement }[] {
  const elements = typeof dashboard.__elements === 'object' && dashboard.__elements !== null ? (dashboard.__elements as Record<string, unknown>) : {};
  const out = new Map<string, ImportedElement | undefined>();
  const visit = (panels: unknown) => {
    if (!Array.isArray(panels)) return;
    for (const panel of panels) {
      if (typeof panel !== 'object' || panel === null) continue;
      const p = panel as { type?: unknown; panels?: unknown; libraryPanel?: unknown };
      if (p.type === 'row') visit(p.panels);
      if (typeof p.libraryPanel !== 'object' || p.libraryPanel === null) continue;
      const uid = (p.libraryPanel as { uid?: unknown }).uid;
      if (typeof uid !== 'string' || uid === '') throw StatusError.badRequest(LibraryPanelHeader.uidMissing);
      if (!out.has(uid)) out.set(uid, elementOf(uid, Object.hasOwn(elements, uid) ? elements[uid] : undefined));
    }
  };
  visit(dashboard.panels);
  return [...out].map(([uid, element]) => (element ? { uid, element } : { uid }));
}

function elementOf(uid: string, v: unknown): ImportedElement | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as { name?: unknown; kind?: unknown; model?: unknown };
  const model = typeof e.model === 'object' && e.model !== null && !Array.isArray(e.model) ? (e.model as JsonObject) : {};
  return { uid, name: typeof e.name === 'string' ? e.name : '', kind: typeof e.kind === 'number' ? e.kind : 1, model };
}

/** `POST /api/dashboards/import`'s answer (the anchor's ImportDashboardResponse). */
export interface ImportDashboardResponse {
  uid: string;
  pluginId: string;
  title: string;
  path: string;
  revision: number;
  description: string;
  folderId: number;
  folderUid: string;
  imported: boolean;
  importedUri: string;
  importedUrl: string;
  importedRevision: number;
  removed: boolean;
  dashboardId: number;
  slug: string;
}
