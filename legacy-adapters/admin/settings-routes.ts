import type { Request, Response } from 'express';
import { z } from 'zod';
import { settingsView } from '../../pkg/config';
import { StatusError } from '../../pkg/errors';
import type { AdapterDeps } from '../shared';

/** The one section `PUT /api/admin/settings` may change (spec §4.11). */
export const CHANGEABLE_SECTION = 'auth.saml';

const settingName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/);
/** The body of `PUT /api/admin/settings`: what to set and what to remove, by section. */
export const settingsChangeSchema = z.strictObject({
  updates: z.record(z.string(), z.record(settingName, z.string().max(65536))).optional(),
  removals: z.record(z.string(), z.array(settingName)).optional(),
});

/**
 * GET /api/admin/settings: the effective configuration by section, every value a string, secrets masked (pkg/config
 * settingsView). The enterprise edition adds the sections stored in the database over it.
 */
export async function getSettings(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const stored = deps.config.server.edition === 'enterprise' ? await deps.settings.all() : {};
  res.json(settingsView(deps.config, stored));
}

/**
 * PUT /api/admin/settings (enterprise edition): `updates` and/or `removals`, only in `auth.saml`, stored in the
 * database so that every replica serves them. Anything else is a 400 that changes nothing.
 */
export async function updateSettings(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const parsed = settingsChangeSchema.safeParse(req.body);
  if (!parsed.success) throw StatusError.badRequest('bad request data');
  const { updates = {}, removals = {} } = parsed.data;
  const sections = [...Object.keys(updates), ...Object.keys(removals)];
  const changes = Object.values(updates).reduce((n, s) => n + Object.keys(s).length, 0) + Object.values(removals).reduce((n, s) => n + s.length, 0);
  if (changes === 0) throw StatusError.badRequest('At least one of updates or removals is required');
  const other = sections.find((s) => s !== CHANGEABLE_SECTION);
  if (other !== undefined) throw StatusError.badRequest(`Only the ${CHANGEABLE_SECTION} section can be updated: ${JSON.stringify(other).slice(0, 80)} cannot`);
  await deps.settings.change(updates, removals);
  res.json({ message: 'Settings updated' });
}
