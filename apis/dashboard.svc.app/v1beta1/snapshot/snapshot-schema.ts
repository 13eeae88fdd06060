import { z } from 'zod';
import { MAX_TITLE_LENGTH } from '../../../../pkg/meta';

/** The key under `spec.secure` holding the snapshot's dashboard JSON (encrypted at rest, never in an answer). */
export const SECURE_DASHBOARD = 'dashboard';

/** A snapshot key: usable in a URL path and as a label value. */
export const SNAPSHOT_KEY = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;

/**
 * Snapshot spec (spec §2.9). `key` shares it (no two snapshots of any organization hold one; generated when absent;
 * the legacy API also names the object by it). The dashboard JSON is a secure value (`spec.secure.dashboard`, a JSON text): encrypted
 * at rest, shown as `spec.secureFields: {dashboard: true}`. The `deleteKey` is stored only as its SHA-256.
 */
export const snapshotSpecSchema = z.looseObject({
  name: z.string().max(MAX_TITLE_LENGTH).default('Unnamed snapshot'),
  key: z.string().regex(SNAPSHOT_KEY, 'must be 1 to 63 letters, digits, ".", "-" or "_", starting and ending with a letter or digit').optional().describe('generated (32 characters) when absent; never changes'),
  expires: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; absent: never'),
  external: z.boolean().default(false),
  externalUrl: z.string().max(2048).optional(),
  externalDeleteUrl: z.string().max(2048).optional(),
  /** The uid of the dashboard the snapshot was taken of, when it had one: who may write it may delete the snapshot. */
  dashboardUid: z.string().max(40).optional(),
  deleteKeyDigest: z.string().regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the delete key').optional(),
  secure: z.record(z.string(), z.string()).optional().describe('write-only: {dashboard: "<dashboard JSON>"}'),
  secureFields: z.record(z.string(), z.boolean()).optional().describe('set by the server'),
});

export type SnapshotSpec = z.infer<typeof snapshotSpecSchema>;
