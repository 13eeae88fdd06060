import { z } from 'zod';
import { defineArea, guard, type LegacyParam } from '../shared';
import { createSnapshot, deleteSnapshot, deleteSnapshotByDeleteKey, getSharingOptions, getSnapshot, searchSnapshots } from './snapshots-routes';

const tags = ['snapshots'];
const deleted = z.object({ message: z.string().describe("Snapshot deleted. It might take an hour before it's cleared from any CDN caches."), id: z.number().int() });
const key: LegacyParam = { name: 'key', in: 'path', type: 'string', required: true };
const createCommand = z.object({
  dashboard: z.record(z.string(), z.unknown()).describe('the dashboard JSON with its data (required); a `uid` must name a dashboard the caller can read'),
  name: z.string().optional().describe('default "Unnamed snapshot"'),
  expires: z.number().int().optional().describe('seconds until it expires; 0 or absent: never'),
  external: z.boolean().optional().describe('an external snapshot (needs `snapshots.external_enabled`), with the key and deleteKey given'),
  key: z.string().optional().describe('the sharing key; 32 random characters when absent; required when external'),
  deleteKey: z.string().optional().describe('the delete key; 32 random characters when absent; required when external'),
});
const listItem = z.object({
  id: z.number().int(),
  name: z.string(),
  key: z.string(),
  orgId: z.number().int(),
  userId: z.number().int().describe('the creator; 0 for a service account'),
  external: z.boolean(),
  externalUrl: z.string(),
  expires: z.string(),
  created: z.string(),
  updated: z.string(),
});
const snapshotMeta = z.object({
  isSnapshot: z.literal(true),
  type: z.literal('snapshot'),
  canSave: z.literal(false),
  canEdit: z.literal(false),
  canStar: z.literal(false),
  slug: z.string(),
  created: z.string(),
  expires: z.string(),
});

/** /api/snapshots and friends (snapshots-routes.ts), spec §4.7, over the Snapshot kind. */
export const snapshotsArea = defineArea({
  name: 'snapshots',
  routes: [
    {
      method: 'post', path: '/api/snapshots', guard: guard.can('snapshots:create'), handler: createSnapshot, operationId: 'createDashboardSnapshot', tags, summary: 'Take a snapshot of a dashboard.',
      description: 'The dashboard JSON is stored encrypted; the delete key is stored as a digest only and shown in this answer alone.',
      body: { schema: createCommand, name: 'CreateDashboardSnapshotCommand' },
      responses: {
        200: { description: 'Its keys and where it is.', schema: z.object({ key: z.string(), deleteKey: z.string(), url: z.string(), deleteUrl: z.string(), id: z.number().int() }), name: 'CreateDashboardSnapshotResponse' },
        400: { description: 'No dashboard object, a bad name, expires, key or deleteKey, an external snapshot without keys, "Dashboard not found".' },
        403: { description: 'Dashboard Snapshots are disabled; External dashboard creation is disabled.' },
        409: { description: 'A snapshot with this key already exists.' },
      },
    },
    {
      method: 'get', path: '/api/dashboard/snapshots', guard: guard.signedIn, handler: searchSnapshots, operationId: 'searchDashboardSnapshots', tags, summary: 'The snapshots of the caller (an org Admin: of the organization), by name.',
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'a case-insensitive substring of the name' },
        { name: 'limit', in: 'query', type: 'integer', default: 1000, description: 'at most this many; 1000 also when invalid' },
      ],
      responses: { 200: { description: 'The snapshots, without their dashboards.', schema: z.array(listItem), name: 'DashboardSnapshotDTOs' } },
    },
    {
      method: 'get', path: '/api/snapshots/:key', guard: guard.public, handler: getSnapshot, operationId: 'getDashboardSnapshot', tags, summary: 'Read a snapshot by its key (no credentials needed).',
      description: 'Answers `Cache-Control: public, max-age=3600`. An expired snapshot is 404.',
      params: [key],
      responses: { 200: { description: 'The dashboard and its snapshot meta.', schema: z.object({ dashboard: z.record(z.string(), z.unknown()), meta: snapshotMeta }), name: 'DashboardSnapshotFull' }, 404: { description: 'Dashboard snapshot not found' } },
    },
    {
      method: 'delete', path: '/api/snapshots/:key', guard: guard.notAnonymous, handler: deleteSnapshot, operationId: 'deleteDashboardSnapshot', tags, summary: 'Delete a snapshot of the organization by its key.',
      description: 'Its creator or an org Admin, or who may write (`dashboards:write`) the dashboard it was taken of, while that dashboard exists.',
      params: [key],
      responses: { 200: { description: 'Deleted.', schema: deleted, name: 'DeleteDashboardSnapshotResponse' }, 403: { description: 'Access denied to this snapshot' }, 404: { description: 'Snapshot not found' } },
    },
    {
      method: 'get', path: '/api/snapshots-delete/:deleteKey', guard: guard.public, handler: deleteSnapshotByDeleteKey, operationId: 'deleteDashboardSnapshotByDeleteKey', tags, summary: 'Delete a snapshot by its delete key (no credentials needed, spec §5.5).',
      params: [{ name: 'deleteKey', in: 'path', type: 'string', required: true }],
      responses: { 200: { description: 'Deleted.', schema: deleted, name: 'DeleteDashboardSnapshotResponse' }, 404: { description: 'Snapshot not found' } },
    },
    {
      method: 'get', path: '/api/snapshot/shared-options', guard: guard.signedIn, handler: getSharingOptions, operationId: 'getSharingOptions', tags, summary: 'The snapshot settings.',
      responses: {
        200: {
          description: 'From the `snapshots` settings.',
          schema: z.object({ snapshotEnabled: z.boolean(), externalSnapshotURL: z.string(), externalSnapshotName: z.string(), externalEnabled: z.boolean() }),
          name: 'GetSharingOptionsResponse',
        },
      },
    },
  ],
});
