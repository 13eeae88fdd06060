import type { ServerCounts } from './server-stats';

/** What the usage report says of the installation besides the counts. */
export interface Installation {
  /** The server's version, `1.2.3`: the report writes it `1_2_3`. */
  version: string;
  edition: 'oss' | 'enterprise' | 'cloud';
  /** A stable id of this installation (the same on every replica). */
  usageStatsId: string;
  /** When the database was set up (organization 1 was made), ms since the epoch. */
  databaseCreated?: number;
  /** Seconds since this process started. */
  uptimeSeconds: number;
  /** Whether a valid license is installed (the enterprise edition's, pkg/licensing); default false. */
  hasValidLicense?: boolean;
}

/** The anchor's `GET /api/admin/usage-report-preview` body (anchor-breadth §8.3). */
export interface UsageReport {
  version: string;
  metrics: Record<string, number>;
  os: string;
  arch: string;
  edition: string;
  hasValidLicense: boolean;
  packaging: string;
  usageStatsId: string;
  databaseCreated?: number;
}

/** The anchor's architecture names (Go's GOARCH) for node's. */
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

/** A metric name part as the anchor writes it: lower case, anything but letters, digits, `-` and `_` as `_`. */
const part = (s: string) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '_');

/**
 * The usage report the server would send (it sends none: this is the preview), with the anchor's metric names, from
 * the same counts as `GET /api/admin/stats`.
 *
 * @example usageReport(await countServer(registries), installation).metrics['stats.dashboards.count']; // 3
 */
export function usageReport(c: ServerCounts, at: Installation): UsageReport {
  const s = c.stats;
  const m: Record<string, number> = {
    'stats.dashboards.count': s.dashboards,
    'stats.users.count': s.users,
    'stats.admins.count': s.admins,
    'stats.editors.count': s.editors,
    'stats.viewers.count': s.viewers,
    'stats.orgs.count': s.orgs,
    'stats.playlist.count': s.playlists,
    'stats.folders.count': c.folders,
    'stats.datasources.count': s.datasources,
    'stats.stars.count': s.stars,
    'stats.snapshots.count': s.snapshots,
    'stats.teams.count': c.teams,
    'stats.alerts.count': s.alerts,
    'stats.alert_rules.count': 0,
    'stats.library_panels.count': c.libraryPanels,
    'stats.library_variables.count': c.libraryVariables,
    'stats.annotations.count': 0,
    'stats.dashboard_permissions.count': c.dashboardPermissions,
    'stats.folder_permissions.count': c.folderPermissions,
    'stats.provisioned_dashboards.count': c.provisionedDashboards,
    'stats.api_keys.count': 0,
    'stats.service_accounts.count': c.serviceAccounts,
    'stats.service_account_tokens.count': c.serviceAccountTokens,
    'stats.total_auth_token.count': c.authTokens,
    'stats.avg_auth_token_per_user.count': s.users === 0 ? 0 : Math.round(c.authTokens / s.users),
    'stats.data_keys.count': c.dataKeys,
    // The newest data key is the active one (pkg/secrets).
    'stats.active_data_keys.count': Math.min(c.dataKeys, 1),
    'stats.active_users.count': s.activeUsers,
    'stats.active_admins.count': s.activeAdmins,
    'stats.active_editors.count': s.activeEditors,
    'stats.active_viewers.count': s.activeViewers,
    'stats.daily_active_users.count': s.dailyActiveUsers,
    'stats.daily_active_admins.count': s.dailyActiveAdmins,
    'stats.daily_active_editors.count': s.dailyActiveEditors,
    'stats.daily_active_viewers.count': s.dailyActiveViewers,
    'stats.monthly_active_users.count': s.monthlyActiveUsers,
    'stats.active_sessions.count': s.activeSessions,
    'stats.daily_active_sessions.count': s.dailyActiveSessions,
    'stats.uptime': Math.floor(at.uptimeSeconds),
    // Plugins are built in: the three data source plugins, no apps or panels of their own.
    'stats.plugins.apps.count': 0,
    'stats.plugins.panels.count': 0,
    'stats.plugins.datasources.count': 3,
    [`edition.${at.edition === 'enterprise' ? 'enterprise' : 'oss'}`]: 1,
    'packaging.unknown': 1,
    'distributor.unknown': 1,
    'valid_license': at.hasValidLicense ? 1 : 0,
    'auth_enabled.basic_auth': 1,
  };
  let other = 0;
  for (const [type, n] of c.dataSourceTypes) {
    if (/^[a-z0-9_-]+$/.test(type)) m[`stats.ds.${type}.count`] = n;
    else other += n;
  }
  m['stats.ds.other.count'] = other;
  for (const [typeAccess, n] of c.dataSourceAccess) {
    const dot = typeAccess.lastIndexOf('.');
    m[`stats.ds_access.${part(typeAccess.slice(0, dot))}.${part(typeAccess.slice(dot + 1))}.count`] = n;
  }
  return {
    version: at.version.replaceAll('.', '_'),
    metrics: m,
    os: process.platform,
    arch: GO_ARCH[process.arch] ?? process.arch,
    edition: at.edition === 'enterprise' ? 'enterprise' : 'oss',
    hasValidLicense: at.hasValidLicense ?? false,
    packaging: 'unknown',
    usageStatsId: at.usageStatsId,
    ...(at.databaseCreated === undefined ? {} : { databaseCreated: at.databaseCreated }),
  };
}
