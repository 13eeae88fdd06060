import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

const line = z.string().max(MAX_NAME_LENGTH).default('');

/** The postal address the anchor keeps for an organization (`PUT /api/org/address`). */
export const orgAddressSchema = z.object({ address1: line, address2: line, city: line, zipCode: line, state: line, country: line });
export type OrgAddress = z.infer<typeof orgAddressSchema>;

/** Organization spec (global: stored in the identity namespace). */
export const orgSpecSchema = z.looseObject({
  name: z.string().max(MAX_NAME_LENGTH).refine((n) => n.trim() !== '', 'name cannot be empty'),
  address: orgAddressSchema.prefault({}),
});

export type OrgSpec = z.infer<typeof orgSpecSchema>;
