import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import { byKind, defineArea, guard, invalidAs, type LegacyParam } from '../shared';
import { createPlaylist, deletePlaylist, getPlaylist, getPlaylistItems, searchPlaylists, updatePlaylist } from './playlists-routes';

const item = z.object({
  type: z.enum(['dashboard_by_uid', 'dashboard_by_tag', 'dashboard_by_id']).describe('dashboard_by_id is deprecated: use dashboard_by_uid'),
  value: z.string().describe('the dashboard uid, the tag, or the deprecated numeric id'),
});
const playlistDTO = z.object({ uid: z.string(), name: z.string(), interval: z.string().describe('a duration such as 5m'), items: z.array(item) });
const playlist = z.object({ id: z.number().int().describe('deprecated numeric id'), uid: z.string(), name: z.string(), interval: z.string() });
const command = z.object({
  uid: z.string().optional().describe('POST only; generated (14 characters) when absent'),
  name: z.string(),
  interval: z.string(),
  items: z.array(item).optional(),
});
const uid: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };
const tags = ['playlists'];
const notFound = { description: 'Playlist not found' };
const invalid = { description: 'A body that is no object, an empty name, a bad interval, an item of an unknown type or with an empty value.' };
// Playlists carry no per-object permissions: the org role decides (Viewers read, Editors write), as the anchor.
const read = guard.can('playlists:read');
const write = (verb: 'create' | 'write' | 'delete') => guard.can(`playlists:${verb}`);

/** /api/playlists (playlists-routes.ts): the anchor's legacy playlists over the Playlist kind (spec §2.10, §4.8). */
export const playlistsArea = defineArea({
  name: 'playlists',
  // The legacy body's `name` is the kind's spec.title.
  errors: { notFound: byKind({ playlists: () => new StatusError(404, 'NotFound', 'Playlist not found') }), invalid: invalidAs({ 'spec.title': 'name' }) },
  routes: [
    {
      method: 'get', path: '/api/playlists', guard: read, handler: searchPlaylists, operationId: 'searchPlaylists', tags, summary: 'The playlists of the organization, by name.',
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'a case-insensitive substring of the name' },
        { name: 'limit', in: 'query', type: 'integer', default: 1000, description: 'at most this many; 1000 also when invalid' },
      ],
      responses: { 200: { description: 'The playlists.', schema: z.array(playlist), name: 'Playlists' }, 403: {} },
    },
    {
      method: 'post', path: '/api/playlists', guard: write('create'), handler: createPlaylist, operationId: 'createPlaylist', tags, summary: 'Create a playlist.',
      body: { schema: command, name: 'CreatePlaylistCommand' },
      responses: { 200: { description: 'The playlist created, with its items.', schema: playlist.extend({ items: z.array(item) }), name: 'Playlist' }, 400: invalid, 403: {}, 409: { description: 'The uid is taken.' }, 422: invalid },
    },
    {
      method: 'get', path: '/api/playlists/:uid', guard: read, handler: getPlaylist, operationId: 'getPlaylist', tags, summary: 'Get a playlist.', params: [uid],
      responses: { 200: { description: 'The playlist.', schema: playlistDTO, name: 'PlaylistDTO' }, 403: {}, 404: notFound },
    },
    {
      method: 'put', path: '/api/playlists/:uid', guard: write('write'), handler: updatePlaylist, operationId: 'updatePlaylist', tags, summary: 'Replace a playlist: its name, interval and items.', params: [uid],
      body: { schema: command.omit({ uid: true }), name: 'UpdatePlaylistCommand' },
      responses: { 200: { description: 'The playlist updated.', schema: playlistDTO, name: 'PlaylistDTO' }, 400: invalid, 403: {}, 404: notFound, 422: invalid },
    },
    {
      method: 'delete', path: '/api/playlists/:uid', guard: write('delete'), handler: deletePlaylist, operationId: 'deletePlaylist', tags, summary: 'Delete a playlist.', params: [uid],
      responses: { 200: { description: 'An empty JSON string, as the anchor.', schema: z.literal('') }, 403: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/playlists/:uid/items', guard: read, handler: getPlaylistItems, operationId: 'getPlaylistItems', tags, summary: 'The items of a playlist.', params: [uid],
      responses: { 200: { description: 'The items, in order.', schema: z.array(item) }, 403: {}, 404: notFound },
    },
  ],
});
