import type { ColumnType, Generated } from 'kysely';

/** int8 columns come back as strings from pg and as numbers from PGlite; callers normalise with Number(). */
type Int8 = ColumnType<string | number, number, number>;
type Json = ColumnType<unknown, string, string>;

export interface ResourceTable {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  folder: string;
  resource_version: Int8;
  value: Json;
}

export interface ResourceHistoryTable {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  folder: string;
  resource_version: Int8;
  previous_resource_version: Int8;
  action: string;
  value: Json;
}

export interface ResourceVersionTable {
  group: string;
  resource: string;
  resource_version: Int8;
  /** Lists and watches may resume only from versions >= this. */
  oldest_resumable: Int8;
  /** The last numeric id handed out for this type (legacy `id`s). */
  last_internal_id: Generated<Int8>;
}

export interface SearchIndexTable {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  folder: string;
  title: string;
  /** The title case-folded (String.prototype.toLowerCase), compared in byte order. */
  sort_title: string;
  tags: ColumnType<string[], string[], string[]>;
  internal_id: Int8;
}

export interface UniqueKeyTable {
  group: string;
  resource: string;
  /** A namespace, or '' for the whole type. */
  scope: string;
  field: string;
  /** The value, or `sha256:<hex>` of a long one. */
  value: string;
  /** The holder. */
  namespace: string;
  name: string;
}

export interface UniqueFieldTable {
  group: string;
  resource: string;
  field: string;
}

/** One reference (migration 0007): the object `name` of (group, resource) names `target_name` of the target type. */
export interface ObjectReferenceTable {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  target_group: string;
  target_resource: string;
  target_name: string;
}

export interface Database {
  resource: ResourceTable;
  resource_history: ResourceHistoryTable;
  resource_version: ResourceVersionTable;
  search_index: SearchIndexTable;
  unique_key: UniqueKeyTable;
  unique_field: UniqueFieldTable;
  object_reference: ObjectReferenceTable;
}
