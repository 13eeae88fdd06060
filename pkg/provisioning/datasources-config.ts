import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type DataSourceSpec, dataSourceSpecSchema } from '../../apis/datasource.svc.app/v1beta1/datasource/datasource-schema';
import { dataSourceStrategy } from '../../apis/datasource.svc.app/v1beta1/datasource/datasource-strategy';
import { nameProblem, type Resource } from '../meta';
import { type ConfigFile, parseConfig } from './read-files';
import { ProvisioningError } from './provisioning-error';
import type { ValueSources } from './values';

/** The anchor's message when two data sources of one organization claim to be its default (anchor-breadth §9.1). */
export const ONE_DEFAULT = 'datasource.yaml config is invalid. Only one datasource per organization can be marked as default';

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const orgId = z.number().int().min(0).max(2 ** 31 - 1).default(1).transform((n) => n || 1);

const entrySchema = z.object({
  name: z.string().min(1, 'required'),
  type: z.string().min(1, 'required'),
  access: z.enum(['proxy', 'direct', '']).default('proxy').transform((a) => a || 'proxy'),
  orgId,
  uid: z.string().optional(),
  url: z.string().default(''),
  user: z.string().default(''),
  database: z.string().default(''),
  basicAuth: z.boolean().default(false),
  basicAuthUser: z.string().default(''),
  withCredentials: z.boolean().default(false),
  isDefault: z.boolean().default(false),
  jsonData: z.record(z.string(), z.unknown()).nullish(),
  secureJsonData: z.record(z.string(), scalar).nullish(),
  version: z.number().int().optional(),
  editable: z.boolean().default(false),
});

const deleteSchema = z.object({ name: z.string().min(1, 'required'), orgId });

/** `<provisioning>/datasources/*.yaml`, apiVersion 1 (anchor-breadth §9.1). */
export const dataSourcesFileSchema = z.object({
  apiVersion: z.union([z.literal(1), z.literal(0)]).optional(),
  datasources: z.array(entrySchema).nullish(),
  deleteDatasources: z.array(deleteSchema).nullish(),
  prune: z.boolean().default(false),
});

export type DataSourceEntry = z.infer<typeof entrySchema> & { file: string; index: number; uid: string };

/** What all data source files ask, checked together. */
export interface DataSourcesPlan {
  files: string[];
  upserts: DataSourceEntry[];
  deletes: { name: string; orgId: number; file: string }[];
  prune: boolean;
}

/**
 * The uid a data source gets when its file gives none: `P` and the upper-case hex of the first 8 bytes of
 * SHA-256(name), as the anchor computes it, so that every replica (and every restart) names it alike.
 *
 * @example safeUidFromName('Prometheus') // 'P' + 16 hex digits
 */
export function safeUidFromName(name: string): string {
  return `P${createHash('sha256').update(name).digest('hex').slice(0, 16).toUpperCase()}`;
}

/**
 * Every data source file read and checked, before anything is written: a file's fields against the format and the
 * kind's rules, uids, one default per organization across files. Throws ProvisioningError on the first problem.
 */
export function planDataSources(files: readonly ConfigFile[], sources: ValueSources): DataSourcesPlan {
  const plan: DataSourcesPlan = { files: files.map((f) => f.file), upserts: [], deletes: [], prune: false };
  const defaults = new Map<number, string>();
  for (const f of files) {
    const doc = parseConfig(f, dataSourcesFileSchema, sources);
    plan.prune ||= doc.prune;
    for (const d of doc.deleteDatasources ?? []) plan.deletes.push({ ...d, file: f.file });
    (doc.datasources ?? []).forEach((entry, index) => {
      const at = (field: string) => `datasources[${index}]${field ? `.${field}` : ''}`;
      const uid = entry.uid || safeUidFromName(entry.name);
      const problem = nameProblem(uid);
      if (problem) throw new ProvisioningError(f.file, at('uid'), problem);
      // The kind's own rules, so that a write cannot fail half-way through the files.
      const checked = dataSourceSpecSchema.safeParse({ ...entry, jsonData: entry.jsonData ?? null, secureJsonData: entry.secureJsonData ?? undefined });
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw new ProvisioningError(f.file, at(issue.path.join('.')), issue.message);
      }
      const object = { metadata: { name: uid }, spec: checked.data } as unknown as Resource<DataSourceSpec>;
      const [cause] = dataSourceStrategy.validate?.(object) ?? [];
      if (cause) throw new ProvisioningError(f.file, at((cause.field ?? '').replace(/^spec\./, '')), cause.message);
      if (entry.isDefault) {
        if (defaults.has(entry.orgId) && defaults.get(entry.orgId) !== entry.name) throw new ProvisioningError(f.file, at('isDefault'), ONE_DEFAULT);
        defaults.set(entry.orgId, entry.name);
      }
      plan.upserts.push({ ...entry, uid, file: f.file, index });
    });
  }
  return plan;
}
