import { settingKind } from '../../apis';
import type { Registry, RequestContext } from '../registry';

/** The namespace settings live in: one set for the whole server, as the anchor's `setting` table. */
export const SETTINGS_NAMESPACE = 'svc-settings';

/** Sections keyed by name, each a map of setting name to value. */
export type SettingSections = Record<string, Record<string, string>>;

/** The object name of a section: `auth.saml` → `auth-saml` (names have no dots to spare for meaning). */
const objectName = (section: string) => section.replaceAll('.', '-').replaceAll('_', '-');

/**
 * The settings kept in the database over the configuration (`PUT /api/admin/settings`), as Setting objects of a
 * registry that serves that kind (see `internalKinds`): every replica reads what another wrote, at its next request.
 *
 * @example
 *   const settings = new StoredSettings(registry.companion(internalKinds));
 *   await settings.change({ 'auth.saml': { enabled: 'true' } }, {});
 *   await settings.all(); // { 'auth.saml': { enabled: 'true' } }
 */
export class StoredSettings {
  private readonly ctx: RequestContext = { requester: { identity: 'service:settings' }, namespace: SETTINGS_NAMESPACE, fieldManager: 'admin-settings' };

  constructor(private readonly registry: Registry) {}

  /** Every stored section. */
  async all(): Promise<SettingSections> {
    await this.registry.init();
    const { items } = await this.registry.list(this.ctx, settingKind, {});
    const out: SettingSections = {};
    for (const { spec } of items) out[spec.section] = { ...spec.values };
    return out;
  }

  /**
   * Sets `updates` and removes `removals`, each section in one write under the type's lock, so a concurrent reader
   * sees a section before or after, never half-changed (a section emptied stays, empty: GET shows it as `{}`).
   */
  async change(updates: Readonly<SettingSections>, removals: Readonly<Record<string, readonly string[]>>): Promise<void> {
    await this.registry.init();
    for (const section of new Set([...Object.keys(updates), ...Object.keys(removals)])) {
      const name = objectName(section);
      await this.registry.upsert(this.ctx, settingKind, name, (current) => {
        const values = { ...(current?.spec.values ?? {}), ...(updates[section] ?? {}) };
        for (const key of removals[section] ?? []) delete values[key];
        return { apiVersion: `${settingKind.group}/${settingKind.version}`, kind: settingKind.kind, metadata: { name }, spec: { section, values } };
      });
    }
  }
}
