import { z } from 'zod';
import { MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from '../../../../pkg/meta';

/**
 * The dashboard JSON fields the spec names (§2.5). Everything else a dashboard carries is kept as sent: the
 * complete model is larger than the spec shows, and frontends add to it.
 */
const panelSchema = z.looseObject({
  datasource: z.looseObject({ type: z.string().nullish(), uid: z.string().nullish() }).nullish(),
  description: z.string().nullish(),
  fieldConfig: z.looseObject({ defaults: z.record(z.string(), z.unknown()).nullish(), overrides: z.array(z.unknown()).nullish() }).nullish(),
  gridPos: z.looseObject({ h: z.int(), w: z.int(), x: z.int(), y: z.int() }).nullish(),
  id: z.int().nullish(),
  options: z.record(z.string(), z.unknown()).nullish(),
  pluginVersion: z.string().nullish(),
  targets: z.array(z.looseObject({ refId: z.string().nullish() })).nullish(),
  title: z.string().nullish(),
  type: z.string().nullish(),
});

const list = z.looseObject({ list: z.array(z.unknown()).nullish() });

export const dashboardSpecSchema = z.looseObject({
  title: z.string().max(MAX_TITLE_LENGTH).refine((t) => t.trim() !== '', 'Dashboard title cannot be empty'),
  annotations: list.nullish(),
  editable: z.boolean().nullish(),
  fiscalYearStartMonth: z.int().min(0).max(11).nullish(),
  graphTooltip: z.int().nullish(),
  links: z.array(z.unknown()).nullish(),
  panels: z.array(panelSchema).nullish(),
  preload: z.boolean().nullish(),
  refresh: z.union([z.string(), z.literal(false)]).nullish(),
  schemaVersion: z.int().nullish(),
  tags: z.array(z.string().max(MAX_TAG_LENGTH)).max(MAX_TAGS).nullish(),
  templating: list.nullish(),
  time: z.looseObject({ from: z.string(), to: z.string() }).nullish(),
  timepicker: z.record(z.string(), z.unknown()).nullish(),
  timezone: z.string().nullish(),
});

export type DashboardSpec = z.infer<typeof dashboardSpecSchema> & { uid?: string; version?: number; id?: number | null };
