import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';
import { ORG_ROLES } from '../orgmember/orgmember-schema';

/**
 * Service account spec, stored in its organization's namespace (`default`, `org-<id>`): a service account
 * belongs to that one org, with one org role, and can never be a server admin (spec §5.3).
 */
export const serviceAccountSpecSchema = z.looseObject({
  /** The display name (the legacy `name`). */
  title: z.string().max(MAX_NAME_LENGTH).refine((n) => n.trim() !== '', 'title cannot be empty'),
  /** `sa-<orgId>-<slug of the title>`, unique in the org, as the anchor derives it. */
  login: z.string().min(1),
  role: z.enum(ORG_ROLES),
  isDisabled: z.boolean().default(false),
});

export type ServiceAccountSpec = z.infer<typeof serviceAccountSpecSchema>;
