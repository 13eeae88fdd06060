import { z } from 'zod';
import { MAX_OBJECT_NAME_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../../../../pkg/meta';

/** Milliseconds since the epoch, as the anchor's `time` and `timeEnd`. */
const epochMillis = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Annotation spec (the anchor's annotations: a text, with tags, at a time or over a region, on a dashboard's panel
 * or for the whole organization). The object name is the annotation's numeric id.
 */
export const annotationSpecSchema = z.object({
  text: z.string().default('').describe('what the annotation says'),
  time: epochMillis.describe('when it starts, milliseconds since the epoch'),
  timeEnd: epochMillis.describe('when it ends (time for a point); never before time'),
  dashboardUID: z.string().max(MAX_OBJECT_NAME_LENGTH).default('').describe("the dashboard it is on; '' for an organization annotation (it cannot change)"),
  panelId: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0).describe('the panel of the dashboard it is on, 0 for none (it cannot change)'),
  tags: z.array(z.string().max(MAX_TAG_LENGTH)).max(MAX_TAGS).default([]).describe('`key` or `key:value`'),
  data: z.record(z.string(), z.unknown()).optional().describe('free-form data a client keeps with it'),
});

export type AnnotationSpec = z.infer<typeof annotationSpecSchema>;
