import { z } from 'zod';
import { MAX_TITLE_LENGTH } from '../../../../pkg/meta';

/** Folder spec (spec §2.3). Fields it does not declare are reported by fieldValidation and pruned, as kube prunes CRD fields. */
export const folderSpecSchema = z.looseObject({
  title: z.string().max(MAX_TITLE_LENGTH).refine((t) => t.trim() !== '', 'folder title cannot be empty'),
  description: z.string().nullish(),
});

export type FolderSpec = z.infer<typeof folderSpecSchema>;
