import type { KindRegistration } from '../../../../pkg/meta';
import { type PlaylistSpec, playlistSpecSchema } from './playlist-schema';

/** Playlist, `playlist.svc.app/v1` (spec §2.10, §4.8): no strategy, the generic registry does it all. */
export const playlistKind = {
  group: 'playlist.svc.app',
  version: 'v1',
  kind: 'Playlist',
  plural: 'playlists',
  singular: 'playlist',
  categories: ['svc'],
  specSchema: playlistSpecSchema,
  deleteResponse: 'status',
  internalIds: true,
  // Ours: the anchor guards playlists with org roles only. No managed permissions.
  access: { resource: 'playlists', roles: { Viewer: [{ verbs: ['read'], on: 'all' }], Editor: [{ verbs: ['create', 'write', 'delete'], on: 'all' }] } },
  // The legacy list matches and sorts by title in the database.
  fields: { title: { path: ['spec', 'title'] } },
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Interval', type: 'string', jsonPath: '.spec.interval' },
  ],
} satisfies KindRegistration<PlaylistSpec>;
