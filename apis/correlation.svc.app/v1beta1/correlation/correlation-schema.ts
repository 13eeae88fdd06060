import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TITLE_LENGTH } from '../../../../pkg/meta';

const uid = z.string().max(MAX_NAME_LENGTH);

const transformationSchema = z.looseObject({
  type: z.enum(['regex', 'logfmt']),
  expression: z.string().optional(),
  field: z.string().optional(),
  mapValue: z.string().optional(),
});

/**
 * Correlation spec (the anchor's correlations: a link from the results of one data source to a query of another,
 * or to an external URL). The object name is the correlation's uid; both data sources are of its organization.
 */
export const correlationSpecSchema = z.looseObject({
  sourceUID: uid.min(1).describe('the data source whose results carry the link'),
  targetUID: uid.default('').describe('the data source queried; required for type query'),
  label: z.string().max(MAX_TITLE_LENGTH).default(''),
  description: z.string().max(MAX_TITLE_LENGTH).default(''),
  provisioned: z.boolean().default(false).describe('made by provisioning: changes and deletes are refused (403)'),
  config: z.looseObject({
    field: z.string().min(1).describe('the field the link is attached to'),
    type: z.enum(['query', 'external']),
    target: z.record(z.string(), z.unknown()).describe('the target query (or URL, for external)'),
    transformations: z.array(transformationSchema).optional(),
  }),
});

export type CorrelationSpec = z.infer<typeof correlationSpecSchema>;
