import type { Request, Response } from 'express';
import { z } from 'zod';
import { authSamlSchema, isSecretSetting, REDACTED, settingsView } from '../../pkg/config';
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
  const bad = Object.entries(updates[CHANGEABLE_SECTION] ?? {}).find(([key, value]) => !validSetting(key, value));
  if (bad) throw StatusError.badRequest(`Invalid value for ${CHANGEABLE_SECTION}.${bad[0]}`);
  await deps.settings.change(updates, removals);
  res.json({ message: 'Settings updated' });
}

/**
 * Whether `value` may be stored for `auth.saml.<key>`: a known setting must parse as the configuration file's would
 * (each alone, so concurrent changes cannot combine into a bad section), and a secret must not be the mask GET
 * answers (storing it back would replace the key with nine asterisks). Unknown settings are kept, and unused.
 */
function validSetting(key: string, value: string): boolean {
  if (isSecretSetting(CHANGEABLE_SECTION, key) && value === REDACTED) return false;
  const field = (authSamlSchema.shape as Record<string, z.ZodType>)[key];
  return !field || field.safeParse(value).success;
}
