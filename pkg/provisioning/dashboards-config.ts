import path from 'node:path';
import { z } from 'zod';
import { type ConfigFile, parseConfig } from './read-files';
import { ProvisioningError } from './provisioning-error';
import type { ValueSources } from './values';

const providerSchema = z.object({
  name: z.string().min(1, 'required'),
  orgId: z.number().int().min(0).max(2 ** 31 - 1).default(1).transform((n) => n || 1),
  folder: z.string().default(''),
  folderUid: z.string().default(''),
  type: z.literal('file', { error: "only providers of type 'file' are supported" }).default('file'),
  disableDeletion: z.boolean().default(false),
  // 0 is the default, as the anchor reads it.
  updateIntervalSeconds: z.number().int().min(0).max(2_147_483).default(10).transform((n) => n || 10),
  allowUiUpdates: z.boolean().default(false),
  options: z.object({
    path: z.string().min(1, 'required'),
    foldersFromFilesStructure: z.boolean().default(false),
  }),
});

/** `<provisioning>/dashboards/*.yaml`, apiVersion 1 (anchor-breadth §9.2). */
export const dashboardsFileSchema = z.object({
  apiVersion: z.union([z.literal(1), z.literal(0)]).optional(),
  providers: z.array(providerSchema).nullish(),
});

export type DashboardProvider = Omit<z.infer<typeof providerSchema>, 'options'> & {
  options: { path: string; foldersFromFilesStructure: boolean };
  /** The YAML file declaring it. */
  file: string;
};

/**
 * The providers of every dashboards file, checked: names unique across files, `foldersFromFilesStructure` not with
 * `folder`/`folderUid`, paths resolved against the working directory. Throws ProvisioningError on the first problem.
 */
export function planProviders(files: readonly ConfigFile[], sources: ValueSources, cwd: string): DashboardProvider[] {
  const out: DashboardProvider[] = [];
  for (const f of files) {
    const doc = parseConfig(f, dashboardsFileSchema, sources);
    (doc.providers ?? []).forEach((p, i) => {
      if (out.some((o) => o.name === p.name)) throw new ProvisioningError(f.file, `providers[${i}].name`, `provider name "${p.name}" is used more than once`);
      if (p.options.foldersFromFilesStructure && (p.folder || p.folderUid)) {
        throw new ProvisioningError(f.file, `providers[${i}].options.foldersFromFilesStructure`, "'folder' and 'folderUid' should be empty using 'foldersFromFilesStructure' option");
      }
      out.push({ ...p, options: { ...p.options, path: path.resolve(cwd, p.options.path) }, file: f.file });
    });
  }
  return out;
}
