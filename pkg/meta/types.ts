/**
 * The resource envelope of spec §2.2, as Kubernetes' ObjectMeta/ListMeta/Status define it.
 * Only the registry sets the system fields (uid, creationTimestamp, generation, resourceVersion, managedFields).
 */
export type JsonObject = { [key: string]: unknown };

/** One entry of `metadata.managedFields`: the fields a manager last wrote, as a FieldsV1 trie. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: JsonObject;
  subresource?: string;
}

export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
  generation: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** A stored object: `{apiVersion, kind, metadata, spec, status}`. `spec` and `status` are the kind's own. */
export interface Resource<Spec = JsonObject, Status = JsonObject> {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec: Spec;
  status?: Status;
}

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ResourceList<T = Resource> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

/** Well-known annotations and labels (spec §2.2). */
export const Annotations = {
  createdBy: 'svc.app/createdBy',
  updatedBy: 'svc.app/updatedBy',
  updatedTimestamp: 'svc.app/updatedTimestamp',
  folder: 'svc.app/folder',
  message: 'svc.app/message',
  /** On a version made by restoring an older one: that version (the legacy history's `restoredFrom`). */
  restoredFrom: 'svc.app/restoredFrom',
} as const;

export const Labels = {
  deprecatedInternalID: 'svc.app/deprecatedInternalID',
} as const;
