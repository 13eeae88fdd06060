import { z } from 'zod';
import { MAX_TITLE_LENGTH } from '../../../../pkg/meta';

/** What a library element is (spec §2.8 `kind`): a reusable panel, or a reusable dashboard variable. */
export const LibraryElementKind = { panel: 1, variable: 2 } as const;

/**
 * A library element (spec §2.8): its uid is `metadata.name`, its folder the `svc.app/folder` annotation, its
 * `version` `metadata.generation` and its legacy `id` the `svc.app/deprecatedInternalID` label; the spec holds the
 * rest. `type` and `description` mirror the model's (see the strategy).
 */
export const libraryPanelSpecSchema = z.object({
  name: z.string().max(MAX_TITLE_LENGTH).refine((n) => n.trim() !== '', 'name cannot be empty'),
  kind: z.union([z.literal(LibraryElementKind.panel), z.literal(LibraryElementKind.variable)], {
    error: 'the element kind is not supported: 1 (panel) or 2 (variable)',
  }),
  type: z.string().max(MAX_TITLE_LENGTH).default(''),
  description: z.string().max(MAX_TITLE_LENGTH).default(''),
  /** The element's JSON model (a panel's, or a variable's), kept as sent. */
  model: z.record(z.string(), z.unknown()),
});

export type LibraryPanelSpec = z.infer<typeof libraryPanelSpecSchema>;
