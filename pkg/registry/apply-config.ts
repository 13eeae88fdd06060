/** What the registry takes from a server-side apply configuration, and the checks kube makes on it first. */
import { StatusError } from '../errors';
import { type JsonObject, type KindRegistration } from '../meta';
import type { WriteOptions } from './context';
import type { ParsedBody } from './object-meta';
import { SYSTEM_ANNOTATIONS } from './object-meta';

export interface ApplyOptions extends WriteOptions {
  /** `force=true`: take the fields other managers own instead of failing with a conflict. */
  force: boolean;
}

/** kube's structuredMergeManager.Apply checks: the configuration names this version and carries no managedFields. */
export function checkApplyConfiguration(kind: KindRegistration, config: JsonObject): void {
  const expected = `${kind.group}/${kind.version}`;
  if (config.apiVersion !== expected) {
    const given = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    throw StatusError.badRequest(`Incorrect version specified in apply patch. Specified patch version: ${given}, expected: ${expected}`);
  }
  const metadata = config.metadata as JsonObject | null | undefined;
  if (metadata?.managedFields !== undefined && metadata.managedFields !== null) throw StatusError.badRequest('metadata.managedFields must be nil');
}

/**
 * The members an applier may own: labels, annotations (not the registry's), finalizers and spec. A null member
 * counts as not applied. The system fields (name, uid, resourceVersion...) are never anyone's.
 *
 * @example appliedConfiguration(input, { metadata: { name: 'a', labels: { x: '1' } }, spec: { title: 't', note: null } })
 * // { metadata: { labels: { x: '1' } }, spec: { title: 't' } }
 */
export function appliedConfiguration(input: ParsedBody, config: JsonObject): JsonObject {
  const { labels, annotations, finalizers } = input.metadata;
  const metadata: JsonObject = {};
  if (labels) metadata.labels = labels;
  if (annotations) metadata.annotations = Object.fromEntries(Object.entries(annotations).filter(([k]) => !SYSTEM_ANNOTATIONS.includes(k)));
  if (finalizers) metadata.finalizers = finalizers;
  const out: JsonObject = { metadata };
  if (config.spec !== undefined && config.spec !== null) out.spec = withoutNulls(config.spec);
  return out;
}

function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === null ? [] : [[k, withoutNulls(v)]])));
}
