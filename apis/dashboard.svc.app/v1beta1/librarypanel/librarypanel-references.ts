import { StatusError } from '../../../../pkg/errors';
import type { KindReference, KindRegistration } from '../../../../pkg/meta';

/** The anchor's words for what connections refuse (anchor-api.md, anchor-breadth.md §5.5). */
export const LibraryPanelMessages = {
  hasConnections: 'the library element has connections',
  folderHasConnected: 'folder contains library elements that are linked in use',
  missingUid: 'library panel header is missing required property uid',
} as const;

interface PanelLike {
  libraryPanel?: unknown;
  panels?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The library panels a dashboard's JSON uses: the `libraryPanel.uid` of its panels, those nested in rows
 * (`panels[].panels[]`) included, in order, each once.
 *
 * @example libraryPanelUids({ panels: [{ libraryPanel: { uid: 'cpu' } }, { type: 'row', panels: [{ libraryPanel: { uid: 'mem' } }] }] }) // ['cpu', 'mem']
 */
export function libraryPanelUids(dashboard: unknown): string[] {
  const uids = new Set<string>();
  const walk = (panels: unknown, depth: number) => {
    if (!Array.isArray(panels) || depth > 2) return;
    for (const p of panels as PanelLike[]) {
      if (!isObject(p)) continue;
      if (isObject(p.libraryPanel) && typeof p.libraryPanel.uid === 'string' && p.libraryPanel.uid !== '') uids.add(p.libraryPanel.uid);
      walk(p.panels, depth + 1);
    }
  };
  walk(isObject(dashboard) ? dashboard.panels : undefined, 1);
  return [...uids];
}

/**
 * The fields of a dashboard's panels that name a library panel without a uid: a save naming none is refused, as the
 * anchor refuses it (anchor-breadth.md §5.5).
 *
 * @example libraryPanelsWithoutUid({ panels: [{ libraryPanel: { name: 'x' } }] }) // ['spec.panels[0].libraryPanel.uid']
 */
export function libraryPanelsWithoutUid(dashboard: unknown, path = 'spec'): string[] {
  const out: string[] = [];
  const walk = (panels: unknown, at: string, depth: number) => {
    if (!Array.isArray(panels) || depth > 2) return;
    (panels as unknown[]).forEach((p, i) => {
      if (!isObject(p)) return;
      const here = `${at}.panels[${i}]`;
      if (p.libraryPanel !== undefined && p.libraryPanel !== null && !(isObject(p.libraryPanel) && typeof p.libraryPanel.uid === 'string' && p.libraryPanel.uid !== '')) out.push(`${here}.libraryPanel.uid`);
      walk(p.panels, here, depth + 1);
    });
  };
  walk(isObject(dashboard) ? dashboard.panels : undefined, path, 1);
  return out;
}

/**
 * A dashboard's connections to the library panels its JSON uses (KindRegistration.references of the dashboard
 * kind): kept by the registry in the transaction of every dashboard write and delete, whichever API makes it, so no
 * connection outlives its dashboard and no connected element or folder holding one is deleted.
 */
export function libraryPanelConnections(libraryPanelKind: KindRegistration): KindReference {
  return {
    field: 'panels',
    group: libraryPanelKind.group,
    resource: libraryPanelKind.plural,
    name: (dashboard) => libraryPanelUids(dashboard),
    requireRead: true,
    // The same answer for a missing element and one the caller may not read: it learns nothing of the other.
    missing: (uid) => StatusError.badRequest(`library panel "${uid}" could not be found`, [{ reason: 'FieldValueNotFound', field: 'spec.panels', message: `Not found: library panel "${uid}"` }]),
    inUse: (uid, folder) =>
      new StatusError(403, 'Forbidden', folder ? LibraryPanelMessages.folderHasConnected : LibraryPanelMessages.hasConnections, {
        name: folder ?? uid,
        group: libraryPanelKind.group,
        kind: libraryPanelKind.plural,
      }),
  };
}
