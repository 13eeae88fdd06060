import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { fieldPath, ProvisioningError } from './provisioning-error';
import { interpolateAll, type ValueSources } from './values';

/** A parsed provisioning file: its path and its document. */
export interface ConfigFile {
  file: string;
  doc: unknown;
}

/**
 * The `*.yaml` / `*.yml` files directly in `dir`, by name, parsed; a missing folder holds none (an installation
 * that provisions nothing of that type), an empty file is skipped, as the anchor does.
 */
export function readYamlFiles(dir: string): ConfigFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /\.ya?ml$/i.test(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ProvisioningError(dir, '', `cannot read the folder: ${(err as Error).message}`);
  }
  const out: ConfigFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let text: string;
    try {
      if (!fs.statSync(file).isFile()) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ProvisioningError(file, '', `cannot read the file: ${(err as Error).message}`);
    }
    let doc: unknown;
    try {
      // Plain data only: no custom tags, no aliases expanding without bound.
      doc = parseYaml(text, { maxAliasCount: 100, prettyErrors: false });
    } catch (err) {
      throw new ProvisioningError(file, '', `invalid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
    if (doc === null || doc === undefined) continue;
    out.push({ file, doc });
  }
  return out;
}

/**
 * A file's document interpolated (every string value, see values.ts) and checked against `schema`: the first
 * problem is an error naming the file and the field.
 */
export function parseConfig<S extends z.ZodType>(f: ConfigFile, schema: S, sources: ValueSources): z.infer<S> {
  const expanded = interpolateAll(f.doc, sources, [], (p, err) => {
    throw new ProvisioningError(f.file, fieldPath(p), err.message);
  });
  const parsed = schema.safeParse(expanded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const input = (issue as { input?: unknown }).input;
    const reason = issue.code === 'invalid_type' && input === undefined ? 'required' : issue.message;
    throw new ProvisioningError(f.file, fieldPath(issue.path), reason);
  }
  return parsed.data;
}
