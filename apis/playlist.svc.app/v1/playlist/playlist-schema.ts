import { z } from 'zod';
import { MAX_TITLE_LENGTH } from '../../../../pkg/meta';

/** A Go-style duration, as the anchor's playlists take them: `5m`, `1h30m`, `30s`. */
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d))+$/;

export const playlistItemSchema = z.looseObject({
  type: z.enum(['dashboard_by_uid', 'dashboard_by_tag', 'dashboard_by_id']),
  value: z.string().min(1, 'must not be empty'),
});

/** Playlist spec (spec §2.10); on update the entire spec must be supplied. */
export const playlistSpecSchema = z.looseObject({
  title: z.string().max(MAX_TITLE_LENGTH).refine((t) => t.trim() !== '', 'title cannot be empty'),
  interval: z.string().regex(DURATION, 'must be a duration such as 5m'),
  items: z.array(playlistItemSchema).default([]),
});

export type PlaylistSpec = z.infer<typeof playlistSpecSchema>;
