import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

/**
 * The columns naming an object and its folder, the same in every table that holds objects or rows of them (written
 * once here, the DDL unchanged). Names compare in byte order (COLLATE "C"), as etcd keys do, so pages are the same
 * on every server.
 */
const OBJECT_KEY_COLUMNS = sql.raw(`"group" text NOT NULL,
          resource text NOT NULL,
          namespace text NOT NULL,
          name text COLLATE "C" NOT NULL,
          folder text NOT NULL DEFAULT ''`);

/**
 * The schema, as versioned migrations. Names sort in the order they run; never edit one that has shipped.
 * kysely's Migrator takes a PostgreSQL advisory lock, so replicas starting together migrate once.
 */
const migrations: Record<string, Migration> = {
  '0001_resources': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE resource (
          ${OBJECT_KEY_COLUMNS},
          resource_version bigint NOT NULL,
          value jsonb NOT NULL,
          PRIMARY KEY ("group", resource, namespace, name)
        )`.execute(db);
      await sql`CREATE INDEX resource_folder_idx ON resource ("group", resource, namespace, folder)`.execute(db);
      await sql`
        CREATE TABLE resource_history (
          ${OBJECT_KEY_COLUMNS},
          resource_version bigint NOT NULL,
          previous_resource_version bigint NOT NULL,
          action text NOT NULL,
          value jsonb NOT NULL,
          PRIMARY KEY ("group", resource, resource_version)
        )`.execute(db);
      // Later list pages read "the newest row per name at or below the list's version": one index walk.
      await sql`CREATE INDEX resource_history_key_idx ON resource_history ("group", resource, namespace, name, resource_version DESC)`.execute(db);
      await sql`
        CREATE TABLE resource_version (
          "group" text NOT NULL,
          resource text NOT NULL,
          resource_version bigint NOT NULL,
          oldest_resumable bigint NOT NULL DEFAULT 0,
          PRIMARY KEY ("group", resource)
        )`.execute(db);
    },
  },
  '0002_internal_ids': {
    async up(db: Kysely<unknown>) {
      // The legacy API's numeric ids (`svc.app/deprecatedInternalID`): one sequence per type, under the type's lock.
      await sql`ALTER TABLE resource_version ADD COLUMN last_internal_id bigint NOT NULL DEFAULT 0`.execute(db);
    },
  },
  '0003_search_index': {
    async up(db: Kysely<unknown>) {
      // One row per object of a searchable kind, written with the object (see search-sql.ts). `sort_title` is the
      // title case-folded by the server, compared in byte order so pages are the same on every backend.
      await sql`
        CREATE TABLE search_index (
          ${OBJECT_KEY_COLUMNS},
          title text NOT NULL,
          sort_title text COLLATE "C" NOT NULL,
          tags text[] NOT NULL DEFAULT '{}',
          internal_id bigint NOT NULL DEFAULT 0,
          PRIMARY KEY ("group", resource, namespace, name)
        )`.execute(db);
      // Pages in title order, per type (a search over several types merges these); with a folder filter, per folder.
      await sql`CREATE INDEX search_index_title_idx ON search_index (namespace, "group", resource, sort_title, name)`.execute(db);
      await sql`CREATE INDEX search_index_folder_idx ON search_index (namespace, "group", resource, folder, sort_title, name)`.execute(db);
      await sql`CREATE INDEX search_index_tags_idx ON search_index USING gin (tags)`.execute(db);
    },
  },
  '0004_search_index_covering': {
    async up(db: Kysely<unknown>) {
      // The title index carries every column a hit needs, so a page is an index-only scan (tag and folder filters
      // included) instead of a heap visit per row.
      await sql`DROP INDEX search_index_title_idx`.execute(db);
      await sql`
        CREATE INDEX search_index_title_idx ON search_index (namespace, "group", resource, sort_title, name)
        INCLUDE (folder, title, tags, internal_id)`.execute(db);
      // A `query` matching few titles would otherwise read the whole title index: a trigram index finds them, where
      // the database has pg_trgm (a trusted extension: the database owner may create it). Without it searches are
      // still right, only a rare substring costs a scan.
      await sql`
        DO $$ BEGIN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXCEPTION WHEN OTHERS THEN
          RAISE NOTICE 'pg_trgm is not available: title searches scan the title index';
        END $$`.execute(db);
      const { rows } = await sql<{ ok: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS ok`.execute(db);
      if (rows[0]?.ok) await sql`CREATE INDEX search_index_title_trgm_idx ON search_index USING gin (sort_title gin_trgm_ops)`.execute(db);
    },
  },
  '0005_search_index_bounded_rows': {
    async up(db: Kysely<unknown>) {
      // A B-tree entry must fit in a third of a page (2704 bytes): 0004's carried whole titles and tag lists, so 50
      // ordinary tags, or a title of 800 CJK characters, failed the write. Entries now hold a bounded sort key (the
      // first SORT_KEY_LENGTH characters of the folded title: titles equal that far are ordered by name) and the
      // short columns; titles and tags are read from the row. Tags keep their GIN index, titles their trigrams.
      await sql`DROP INDEX search_index_title_idx`.execute(db);
      await sql`
        CREATE INDEX search_index_title_idx ON search_index (namespace, "group", resource, (left(sort_title, 200)), name)
        INCLUDE (folder, internal_id)`.execute(db);
      await sql`DROP INDEX search_index_folder_idx`.execute(db);
      await sql`CREATE INDEX search_index_folder_idx ON search_index (namespace, "group", resource, folder, (left(sort_title, 200)), name)`.execute(db);
    },
  },
  '0006_unique_keys': {
    async up(db: Kysely<unknown>) {
      // Values one object of a type alone may hold in a scope (a namespace, or '' for the type): the primary key is
      // the constraint, written with the object (see unique-sql.ts). `name` is the holder, found by its own index
      // when the holder is updated or deleted. Long values are stored as their digest (an index row is limited).
      await sql`
        CREATE TABLE unique_key (
          "group" text NOT NULL,
          resource text NOT NULL,
          scope text NOT NULL,
          field text NOT NULL,
          value text NOT NULL,
          namespace text NOT NULL,
          name text COLLATE "C" NOT NULL,
          PRIMARY KEY ("group", resource, scope, field, value)
        )`.execute(db);
      await sql`CREATE INDEX unique_key_holder_idx ON unique_key ("group", resource, namespace, name)`.execute(db);
      // The fields whose keys are complete: objects stored before a field was declared unique are filled in once.
      await sql`
        CREATE TABLE unique_field (
          "group" text NOT NULL,
          resource text NOT NULL,
          field text NOT NULL,
          PRIMARY KEY ("group", resource, field)
        )`.execute(db);
      // Objects numbered before their type used the sequence (users and orgs were numbered max + 1, so a deleted
      // one's id came back): the sequence starts past every id stored or deleted that history still shows.
      await sql`
        UPDATE resource_version v SET last_internal_id = greatest(v.last_internal_id, m.id)
        FROM (
          SELECT "group", resource, max((value->'metadata'->'labels'->>'svc.app/deprecatedInternalID')::bigint) AS id
          FROM (
            SELECT "group", resource, value FROM resource
            UNION ALL
            SELECT "group", resource, value FROM resource_history WHERE action = 'DELETED'
          ) o
          WHERE value->'metadata'->'labels'->>'svc.app/deprecatedInternalID' ~ '^[0-9]{1,15}$'
          GROUP BY "group", resource
        ) m
        WHERE v."group" = m."group" AND v.resource = m.resource`.execute(db);
    },
  },
  '0007_object_references': {
    async up(db: Kysely<unknown>) {
      // What objects name of other objects of their namespace (a dashboard's library panels), written with the
      // referring object (see reference-sql.ts). The primary key serves "what does this object reference" (replaced
      // on every write of it); the target index serves "who references this object" (a delete's refusal, the
      // library panel's connections).
      await sql`
        CREATE TABLE object_reference (
          "group" text NOT NULL,
          resource text NOT NULL,
          namespace text NOT NULL,
          name text COLLATE "C" NOT NULL,
          target_group text NOT NULL,
          target_resource text NOT NULL,
          target_name text COLLATE "C" NOT NULL,
          PRIMARY KEY ("group", resource, namespace, name, target_group, target_resource, target_name)
        )`.execute(db);
      await sql`CREATE INDEX object_reference_target_idx ON object_reference (target_group, target_resource, namespace, target_name)`.execute(db);
    },
  },
  '0008_permission_items_index': {
    async up(db: Kysely<unknown>) {
      // The items of managed permission lists (spec.permissions), for "the lists naming this user or team" (a user's
      // or team's delete, ListQuery.contains): a containment query reads only those. Objects without the field have
      // no entry worth the name.
      await sql`CREATE INDEX resource_permission_items_idx ON resource USING gin ((value #> '{spec,permissions}'::text[]) jsonb_path_ops)`.execute(db);
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
