import { randomInt } from 'node:crypto';
import type { Request, Response } from 'express';
import { playlistKind as typedPlaylistKind } from '../../apis';
import { anyKind } from '../../pkg/meta';
import { type AdapterDeps, positiveQueryInt, queryString, requestContext } from '../shared';
import { parsePlaylistCommand, toPlaylistDTO, toPlaylistHit, toPlaylistItems, toPlaylistSpec } from './playlists-conversions';

const playlistKind = anyKind(typedPlaylistKind);
/** The anchor's list cap, also when `limit` is missing or invalid. */
const DEFAULT_LIMIT = 1000;

/** A uid as the anchor generates them: 14 letters and digits. */
function newUid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 14 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/**
 * The legacy playlist endpoints (the anchor's pkg/api/playlist.go) as clients of the Playlist kind: what they
 * write, `/apis` and its watches show, and the kind's rules (items, interval, title) refuse the same bodies.
 */
export async function searchPlaylists(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const query = queryString(req.query.query) ?? '';
  const limit = positiveQueryInt(req.query.limit, DEFAULT_LIMIT);
  // Matched and sorted by the database: by title, case folded (byte order), then uid; one page read.
  const page = await registry.page(requestContext(req, registry), playlistKind, { query: { text: query, fields: ['title'] }, orderBy: ['title'], limit });
  res.json(page.items.map(toPlaylistHit));
}

export async function getPlaylist(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  res.json(toPlaylistDTO(await registry.get(requestContext(req, registry), playlistKind, String(req.params.uid))));
}

export async function getPlaylistItems(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  res.json(toPlaylistItems(await registry.get(requestContext(req, registry), playlistKind, String(req.params.uid))));
}

export async function createPlaylist(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const cmd = parsePlaylistCommand(req.body);
  const created = await registry.create(requestContext(req, registry), playlistKind, {
    apiVersion: `${playlistKind.group}/${playlistKind.version}`,
    kind: playlistKind.kind,
    metadata: { name: cmd.uid ?? newUid() },
    spec: toPlaylistSpec(cmd),
  });
  res.json({ ...toPlaylistHit(created), items: toPlaylistItems(created) });
}

// The whole spec is replaced, as PUT /apis does; labels and annotations of the object stay.
export async function updatePlaylist(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const cmd = parsePlaylistCommand(req.body);
  const updated = await registry.patch(requestContext(req, registry), playlistKind, String(req.params.uid), (current) => ({ ...current, spec: toPlaylistSpec(cmd) }));
  res.json(toPlaylistDTO(updated));
}

export async function deletePlaylist(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  await registry.delete(requestContext(req, registry), playlistKind, String(req.params.uid));
  // The anchor answers an empty JSON string.
  res.json('');
}
