import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/** The anchor's longest data source name (`pkg/api/datasource/validation.go`). */
export const MAX_DATASOURCE_NAME_LENGTH = 190;
/** The anchor's longest URL. */
export const MAX_DATASOURCE_URL_LENGTH = 255;
/** Ours: `jsonData` holds a plugin's settings, not data; this many bytes of JSON at most. */
export const MAX_JSON_DATA_BYTES = 256 * 1024;

/** The anchor's validation messages, as both APIs answer them (the legacy 400s, the causes of the /apis 422s). */
export const DataSourceMessages = {
  nameInvalid: 'Invalid datasource name.',
  urlInvalid: 'Invalid datasource url.',
  urlSyntax: 'Validation error, invalid URL',
  uidInvalid: 'Invalid datasource UID.',
  jsonDataTooLarge: `jsonData too large, max ${MAX_JSON_DATA_BYTES} bytes`,
  nameTaken: 'data source with the same name already exists',
  uidTaken: 'data source with the same uid already exists',
  stale: 'Datasource has already been updated by someone else. Please reload and try again',
  readOnlyUpdate: 'Cannot update read-only data source',
  readOnlyDelete: 'Cannot delete read-only data source',
} as const;

/**
 * DataSource spec (spec §2.7): one kind for every plugin, the plugin in `type` (the anchor serves one group per
 * plugin, `<plugin>.datasource.svc.app`). The object name is the data source's uid; the legacy `id` is the
 * registry's `svc.app/deprecatedInternalID` and `version` its `metadata.generation`. `secureJsonData` is write-only:
 * answers carry `secureJsonFields` ({key: true}) instead.
 */
export const dataSourceSpecSchema = z.looseObject({
  name: z
    .string()
    .max(MAX_DATASOURCE_NAME_LENGTH, DataSourceMessages.nameInvalid)
    .refine((n) => n.trim() !== '', 'name cannot be empty'),
  type: z.string().max(MAX_NAME_LENGTH * 4).refine((t) => t.trim() !== '', 'type cannot be empty').describe('the plugin: prometheus, svc-postgresql-datasource, svc-testdata-datasource...'),
  access: z.enum(['proxy', 'direct']).default('proxy'),
  url: z.string().max(MAX_DATASOURCE_URL_LENGTH, DataSourceMessages.urlInvalid).default(''),
  user: z.string().max(MAX_DATASOURCE_NAME_LENGTH).default(''),
  database: z.string().max(MAX_DATASOURCE_NAME_LENGTH).default(''),
  basicAuth: z.boolean().default(false),
  basicAuthUser: z.string().max(MAX_DATASOURCE_NAME_LENGTH).default(''),
  withCredentials: z.boolean().default(false),
  isDefault: z.boolean().default(false).describe('at most one per organization; the first data source of an organization is it'),
  jsonData: z.record(z.string(), z.unknown()).nullable().default(null).describe("the plugin's settings"),
  secureJsonData: z.record(z.string(), z.string()).optional().describe('write-only secrets, stored encrypted; "" removes a key, an omitted key keeps its value'),
  secureJsonFields: z.record(z.string(), z.boolean()).optional().describe('output only: the secureJsonData keys that hold a value'),
  readOnly: z.boolean().default(false).describe('provisioned: updates and deletes are refused (403)'),
});

export type DataSourceSpec = z.infer<typeof dataSourceSpecSchema>;
