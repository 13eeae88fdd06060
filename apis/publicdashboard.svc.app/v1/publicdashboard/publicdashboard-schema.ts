import { z } from 'zod';
import { MAX_OBJECT_NAME_LENGTH } from '../../../../pkg/meta';

/**
 * An access token as the anchor accepts one (its `uuid.Parse`): 32 hexadecimal digits, as it generates them, or the
 * dashed form of a UUID.
 */
export const ACCESS_TOKEN = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** How a public dashboard is shared: with anyone holding its link, or (the anchor's licensed feature) by e-mail. */
export const SHARE_TYPES = ['public', 'email'] as const;

/**
 * PublicDashboard spec (the anchor's public dashboards): a dashboard shown without credentials to whoever holds its
 * access token, while enabled. The object name is the anchor's public dashboard `uid`.
 */
export const publicDashboardSpecSchema = z.object({
  dashboardUid: z.string().min(1).max(MAX_OBJECT_NAME_LENGTH).describe('the dashboard it shows, of the same organization (it cannot change)'),
  accessToken: z.string().regex(ACCESS_TOKEN, 'must be 32 hexadecimal digits (or a UUID)').describe('the secret of its anonymous routes; generated when absent (it cannot change)'),
  isEnabled: z.boolean().default(false).describe('anonymous visitors see it only while true (else 403 "Public dashboard paused")'),
  annotationsEnabled: z.boolean().default(false).describe("visitors see the dashboard's annotations"),
  timeSelectionEnabled: z.boolean().default(false).describe("visitors may pick the time range; else the dashboard's own"),
  share: z.enum(SHARE_TYPES).default('public').describe('public; email is the anchor\'s licensed sharing, never shown here'),
});

export type PublicDashboardSpec = z.infer<typeof publicDashboardSpecSchema>;
