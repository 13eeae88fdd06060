import { type KindStrategy, labelKey } from '../../../../pkg/meta';
import type { PublicDashboardSpec } from './publicdashboard-schema';

/** Labels derived from the spec on every write (a client's values are replaced), which the server finds objects by. */
export const PUBLIC_DASHBOARD_LABELS = {
  /** The access token itself (a valid label value): finds the public dashboard of a token in any organization. */
  accessToken: 'publicdashboard.svc.app/access-token',
  /** `labelKey(dashboardUid)`: finds a dashboard's public dashboard, and its delete's cascade. */
  dashboard: 'publicdashboard.svc.app/dashboard',
} as const;

/** A new access token as the anchor makes one: a random UUID's 32 hexadecimal digits (the platform's Web Crypto). */
export const newAccessToken = (): string => globalThis.crypto.randomUUID().replace(/-/g, '');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An access token is generated when none is given; the token and the dashboard never change (an update naming
 * neither keeps them); the labels follow the spec.
 */
export const publicDashboardStrategy: KindStrategy<PublicDashboardSpec> = {
  prepareForCreate(obj) {
    if (isObject(obj.spec) && (obj.spec.accessToken === undefined || obj.spec.accessToken === '')) obj.spec.accessToken = newAccessToken();
  },
  prepareForUpdate(obj, old) {
    if (!isObject(obj.spec)) return;
    obj.spec.accessToken ??= old.spec.accessToken;
    obj.spec.dashboardUid ??= old.spec.dashboardUid;
  },
  validate(obj, old) {
    if (!old) return [];
    const immutable = (['dashboardUid', 'accessToken'] as const).filter((f) => obj.spec[f] !== old.spec[f]);
    return immutable.map((f) => ({ field: `spec.${f}`, reason: 'FieldValueInvalid', message: 'field is immutable' }));
  },
  canonicalize(obj) {
    const labels = Object.entries(obj.metadata.labels ?? {}).filter(([k]) => !(Object.values(PUBLIC_DASHBOARD_LABELS) as string[]).includes(k));
    obj.metadata.labels = {
      ...Object.fromEntries(labels),
      [PUBLIC_DASHBOARD_LABELS.accessToken]: obj.spec.accessToken,
      [PUBLIC_DASHBOARD_LABELS.dashboard]: labelKey(obj.spec.dashboardUid),
    };
  },
};
