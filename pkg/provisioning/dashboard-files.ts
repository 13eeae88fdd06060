import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dashboardKind } from '../../apis/dashboard.svc.app/v1beta1/dashboard';
import { type JsonObject, nameProblem } from '../meta';
import type { DashboardProvider } from './dashboards-config';
import { ProvisioningError } from './provisioning-error';

/** One dashboard file of a provider, read and checked. */
export interface DashboardFile {
  /** The file's path relative to the provider's path (`team/latency.json`): the legacy `provisionedExternalId`. */
  relative: string;
  uid: string;
  /** The dashboard model without `id`, `uid` and `version` (the file's id and version are ignored). */
  spec: JsonObject;
  /** With `foldersFromFilesStructure`, the title of the folder its sub-folder stands for ('' = the provider's). */
  folderTitle: string;
}

/** A uid no replica computes differently: `P` and 16 hex digits of a digest of what names the object. */
export function stableUid(...parts: (string | number)[]): string {
  return `P${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16).toUpperCase()}`;
}

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) out.push(full);
  }
}

/**
 * Every `*.json` below the provider's path (sub-folders included), parsed and checked against the dashboard kind,
 * before anything is written: a bad file stops the provider (an error naming it and the field).
 */
export function readDashboardFiles(p: DashboardProvider, index: number): DashboardFile[] {
  const root = p.options.path;
  const files: string[] = [];
  try {
    walk(root, files);
  } catch (err) {
    throw new ProvisioningError(p.file, `providers[${index}].options.path`, `cannot read ${root}: ${(err as Error).message}`);
  }
  const seen = new Map<string, string>();
  return files.map((file) => {
    let model: unknown;
    try {
      model = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ProvisioningError(file, '', `invalid JSON: ${(err as Error).message}`);
    }
    if (!model || typeof model !== 'object' || Array.isArray(model)) throw new ProvisioningError(file, '', 'a dashboard must be a JSON object');
    const relative = path.relative(root, file).split(path.sep).join('/');
    const { id: _id, uid: given, version: _version, ...spec } = model as JsonObject;
    if (given !== undefined && given !== null && typeof given !== 'string') throw new ProvisioningError(file, 'uid', 'must be a string');
    const uid = given || stableUid(p.orgId, p.name, relative);
    const problem = nameProblem(uid);
    if (problem) throw new ProvisioningError(file, 'uid', problem);
    if (seen.has(uid)) throw new ProvisioningError(file, 'uid', `the same uid is used by ${seen.get(uid)}`);
    seen.set(uid, relative);
    const checked = dashboardKind.specSchema.safeParse(spec);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const input = (issue as { input?: unknown }).input;
      throw new ProvisioningError(file, issue.path.join('.'), issue.code === 'invalid_type' && input === undefined ? 'required' : issue.message);
    }
    const dir = path.posix.dirname(relative);
    return { relative, uid, spec: spec as JsonObject, folderTitle: p.options.foldersFromFilesStructure && dir !== '.' ? path.posix.basename(dir) : '' };
  });
}
