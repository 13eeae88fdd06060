import { Labels, type Resource } from '../../pkg/meta';
import { StatusError } from '../../pkg/errors';

/** An item of a legacy playlist: `dashboard_by_uid`, `dashboard_by_tag` or the deprecated `dashboard_by_id`. */
export interface PlaylistItemDTO {
  type: string;
  value: string;
}

/** `GET /api/playlists/:uid` (the anchor's PlaylistDTO). */
export interface PlaylistDTO {
  uid: string;
  name: string;
  interval: string;
  items: PlaylistItemDTO[];
}

/** A hit of `GET /api/playlists` (the anchor's Playlist). */
export interface PlaylistHit {
  id: number;
  uid: string;
  name: string;
  interval: string;
}

/** The body of `POST /api/playlists` and `PUT /api/playlists/:uid`, as sent (checked by the Playlist kind). */
export interface PlaylistCommand {
  uid?: string;
  name: unknown;
  interval: unknown;
  items: unknown;
}

export const badPlaylistData = () => StatusError.badRequest('bad request data');

/**
 * The legacy body, bound as the anchor binds it: an object whose `items` (when given) is a list of `{type, value}`;
 * the values themselves are the Playlist kind's to check, so both APIs refuse the same playlists.
 */
export function parsePlaylistCommand(body: unknown): PlaylistCommand {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badPlaylistData();
  const b = body as Record<string, unknown>;
  if (b.uid !== undefined && typeof b.uid !== 'string') throw badPlaylistData();
  if (b.items !== undefined && b.items !== null && !Array.isArray(b.items)) throw badPlaylistData();
  const items = ((b.items as unknown[] | null | undefined) ?? []).map((i) => {
    if (!i || typeof i !== 'object' || Array.isArray(i)) throw badPlaylistData();
    // The anchor's items also carry ids, order and an unused title: only type and value are a playlist's.
    const { type, value } = i as Record<string, unknown>;
    return { type, value };
  });
  return { uid: b.uid === '' ? undefined : (b.uid as string | undefined), name: b.name, interval: b.interval, items };
}

/** The spec a command writes: `name` is the title, `interval` and `items` as they are. */
export function toPlaylistSpec(cmd: PlaylistCommand): Record<string, unknown> {
  return { title: cmd.name, interval: cmd.interval, items: cmd.items };
}

const itemsOf = (p: Resource): PlaylistItemDTO[] =>
  (Array.isArray(p.spec.items) ? (p.spec.items as Record<string, unknown>[]) : []).map((i) => ({ type: String(i.type), value: String(i.value) }));

export function toPlaylistDTO(p: Resource): PlaylistDTO {
  return { uid: p.metadata.name, name: String(p.spec.title ?? ''), interval: String(p.spec.interval ?? ''), items: itemsOf(p) };
}

export function toPlaylistHit(p: Resource): PlaylistHit {
  return { id: Number(p.metadata.labels?.[Labels.deprecatedInternalID] ?? 0), uid: p.metadata.name, name: String(p.spec.title ?? ''), interval: String(p.spec.interval ?? '') };
}

export const toPlaylistItems = itemsOf;
