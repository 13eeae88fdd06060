import { z } from 'zod';
import { type StatusCause, StatusError } from '../errors';
import { Annotations, type JsonObject, type KindRegistration, PROVISIONER_IDENTITY, PROVISIONING_ANNOTATION_KEYS, type Resource } from '../meta';
import type { RequestContext } from './context';
import type { StoredObject } from '../../storage';
import { causesFromZod, REPORTING_PARSE } from './zod-causes';
import { labelKeyErrors, labelValueErrors } from './selectors/label-selector';

const stringMap = z.record(z.string(), z.string()).nullable().optional();

/** What a client may send in `metadata`; everything else there is the registry's and is ignored. */
const metadataInput = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  resourceVersion: z.string().optional(),
  uid: z.string().optional(),
  labels: stringMap,
  annotations: stringMap,
  finalizers: z.array(z.string()).nullable().optional(),
  /** Kept raw: a request's managedFields replace the stored ones only when well-formed (managedFieldsFromRequest). */
  managedFields: z.unknown().optional(),
});

const bodyInput = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: metadataInput.nullable().optional(),
});

export type MetadataInput = z.infer<typeof metadataInput>;

export interface ParsedBody {
  metadata: MetadataInput;
  spec: unknown;
}

/** Annotations only the registry writes; a client's values for them are replaced. */
export const SYSTEM_ANNOTATIONS: readonly string[] = [Annotations.createdBy, Annotations.updatedBy, Annotations.updatedTimestamp];
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/**
 * Checks a request body against the URL it came to (apiVersion, kind, namespace) and the metadata a client
 * may set. Shape errors are 400 as kube-apiserver's decoder answers; invalid metadata is 422.
 */
export function parseBody(kind: KindRegistration, body: unknown, namespace: string): ParsedBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw StatusError.badRequest('the body of the request must be a JSON object');
  }
  const parsed = bodyInput.safeParse(body, REPORTING_PARSE);
  if (!parsed.success) throw StatusError.invalid(kind, nameOf(body), causesFromZod(parsed.error, ''));
  const { apiVersion, kind: bodyKind } = parsed.data;
  const expected = `${kind.group}/${kind.version}`;
  if (apiVersion !== undefined && apiVersion !== expected) {
    throw StatusError.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  }
  if (bodyKind !== undefined && bodyKind !== kind.kind) {
    throw StatusError.badRequest(`the kind in the data (${bodyKind}) does not match the expected kind (${kind.kind})`);
  }
  const metadata = parsed.data.metadata ?? {};
  if (metadata.namespace && metadata.namespace !== namespace) {
    throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const causes = metadataProblems(metadata);
  if (causes.length) throw StatusError.invalid(kind, metadata.name ?? metadata.generateName ?? '', causes);
  return { metadata, spec: (body as JsonObject).spec };
}

function nameOf(body: unknown): string {
  const meta = (body as { metadata?: { name?: unknown } }).metadata;
  return typeof meta?.name === 'string' ? meta.name : '';
}

function metadataProblems(m: MetadataInput): StatusCause[] {
  const causes: StatusCause[] = [];
  // As kube-apiserver's ValidateLabels and ValidateAnnotations: each message names the key (or value) it is about.
  const invalid = (value: string, message: string) => `Invalid value: ${JSON.stringify(value)}: ${message}`;
  for (const [k, v] of Object.entries(m.labels ?? {})) {
    for (const message of labelKeyErrors(k)) causes.push({ field: 'metadata.labels', message: invalid(k, message) });
    for (const message of labelValueErrors(v)) causes.push({ field: `metadata.labels`, message: invalid(v, message) });
  }
  (m.finalizers ?? []).forEach((f, i) => {
    for (const message of labelKeyErrors(f)) causes.push({ field: `metadata.finalizers[${i}]`, message: invalid(f, message) });
  });
  let size = 0;
  for (const [k, v] of Object.entries(m.annotations ?? {})) {
    for (const message of labelKeyErrors(k.toLowerCase())) causes.push({ field: 'metadata.annotations', message: invalid(k, message) });
    size += k.length + v.length;
  }
  if (size > MAX_ANNOTATIONS_BYTES) {
    causes.push({ field: 'metadata.annotations', reason: 'FieldValueTooLong', message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes` });
  }
  return causes;
}

/** The client's annotations without the ones the registry owns, or undefined when none remain. */
export function clientAnnotations(annotations: Record<string, string> | null | undefined): Record<string, string> | undefined {
  if (!annotations) return undefined;
  const out = Object.fromEntries(Object.entries(annotations).filter(([k]) => !SYSTEM_ANNOTATIONS.includes(k) && !PROVISIONING_ANNOTATION_KEYS.includes(k)));
  return Object.keys(out).length ? out : undefined;
}

/** Present and non-empty, or undefined: an empty list is not stored, so `[]` and absent compare equal. */
export function nonEmptyList(list: readonly string[] | null | undefined): string[] | undefined {
  return list && list.length ? [...list] : undefined;
}

/**
 * kube's ValidateNoNewFinalizers: once an object is being deleted, its finalizers may only go away.
 * Returns the 422 cause, if any.
 */
export function newFinalizersProblem(next: readonly string[] | undefined, old: readonly string[] | undefined): StatusCause | undefined {
  const added = [...new Set(next ?? [])].filter((f) => !(old ?? []).includes(f)).sort();
  if (!added.length) return undefined;
  return {
    field: 'metadata.finalizers',
    reason: 'FieldValueForbidden',
    message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
  };
}

/** Present and non-empty, or undefined: an empty map is not stored, so `{}` and absent compare equal. */
export function nonEmpty(map: Record<string, string> | null | undefined): Record<string, string> | undefined {
  return map && Object.keys(map).length ? { ...map } : undefined;
}

/** A stored row as an object: its resourceVersion the row's, placed after uid as kube-apiserver places it. */
export function toResource(s: StoredObject): Resource {
  const value = s.value as unknown as Resource;
  const { name, generateName, namespace, uid, resourceVersion: _stale, ...rest } = value.metadata;
  const metadata = { name, ...(generateName ? { generateName } : {}), namespace, uid, resourceVersion: String(s.resourceVersion), ...rest };
  return { ...value, metadata };
}

/** The write is the provisioner's own (pkg/provisioning): kinds' refusals of changes do not apply to it. */
export function isProvisioner(ctx: RequestContext): boolean {
  return ctx.requester.identity === PROVISIONER_IDENTITY;
}

/**
 * The provisioning annotations a write leaves: the provisioner's as its body says them; anyone else's as stored
 * (none on a create), whatever the body says, so that no client makes an object provisioned or frees it.
 */
export function provisioningAnnotations(ctx: RequestContext, given: Record<string, string> | null | undefined, current?: Resource): Record<string, string> {
  const from = isProvisioner(ctx) ? given : current?.metadata.annotations;
  return Object.fromEntries(Object.entries(from ?? {}).filter(([k]) => PROVISIONING_ANNOTATION_KEYS.includes(k)));
}
