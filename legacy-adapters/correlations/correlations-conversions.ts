import { z } from 'zod';
import type { CorrelationSpec } from '../../apis/correlation.svc.app/v1beta1/correlation';
import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';

/** The anchor's Correlation record. */
export interface CorrelationDTO {
  uid: string;
  orgId: number;
  sourceUID: string;
  targetUID: string;
  label: string;
  description: string;
  provisioned: boolean;
  config: CorrelationSpec['config'];
}

/** A stored correlation as the anchor's record. */
export function toCorrelationDTO(obj: Resource<CorrelationSpec>, orgId: number): CorrelationDTO {
  const s = obj.spec;
  return { uid: obj.metadata.name, orgId, sourceUID: s.sourceUID, targetUID: s.targetUID, label: s.label, description: s.description, provisioned: s.provisioned, config: s.config };
}

const config = z.looseObject({
  field: z.string().optional(),
  type: z.string().optional(),
  target: z.record(z.string(), z.unknown()).optional(),
  transformations: z.array(z.record(z.string(), z.unknown())).nullish(),
});
const createSchema = z.looseObject({ targetUID: z.string().optional(), label: z.string().optional(), description: z.string().optional(), provisioned: z.boolean().optional(), config });
const updateSchema = z.looseObject({ label: z.string().optional(), description: z.string().optional(), config: config.optional() });

const badRequest = () => StatusError.badRequest('bad request data');

/**
 * The spec `POST /api/datasources/uid/:sourceUID/correlations` writes (the anchor's CreateCorrelationCommand).
 * @throws StatusError 400 "bad request data" for a body of wrong types.
 *
 * @example createdSpec('logs', { targetUID: 'traces', config: { field: 'id', type: 'query', target: {} } }).sourceUID; // 'logs'
 */
export function createdSpec(sourceUID: string, body: unknown): Record<string, unknown> {
  const parsed = createSchema.safeParse(body);
  if (!parsed.success) throw badRequest();
  const { targetUID = '', label = '', description = '', provisioned = false, config: c } = parsed.data;
  return { sourceUID, targetUID, label, description, provisioned, config: c };
}

/**
 * The spec a `PATCH .../correlations/:uid` makes of the current one: label, description and the config's fields
 * it names replace theirs (the anchor's UpdateCorrelationCommand).
 * @throws StatusError 400 for a body of wrong types, or one that names nothing to change.
 */
export function patchedSpec(current: CorrelationSpec, body: unknown): CorrelationSpec {
  const parsed = updateSchema.safeParse(body);
  if (!parsed.success) throw badRequest();
  const { label, description, config: c } = parsed.data;
  if (label === undefined && description === undefined && c === undefined) throw StatusError.badRequest('At least one of label, description or config is required');
  const defined = Object.fromEntries(Object.entries(c ?? {}).filter(([, v]) => v !== undefined && v !== null));
  return { ...current, ...(label !== undefined ? { label } : {}), ...(description !== undefined ? { description } : {}), config: { ...current.config, ...defined } as CorrelationSpec['config'] };
}
