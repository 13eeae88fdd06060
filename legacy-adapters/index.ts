import { accessControlArea } from './access-control';
import { annotationsArea } from './annotations';
import { adminArea } from './admin';
import { apiKeysArea } from './api-keys';
import { correlationsArea } from './correlations';
import { dashboardsArea } from './dashboards';
import { dataSourceProxyArea } from './datasource-proxy';
import { dataSourcesArea } from './datasources';
import { dsQueryArea } from './ds-query';
import { encryptionArea } from './encryption';
import { foldersArea } from './folders';
import { libraryElementsArea } from './library-elements';
import { licensingArea } from './licensing';
import { orgInvitesArea } from './org-invites';
import { orgsArea } from './orgs';
import { permissionsArea } from './permissions';
import { playlistsArea } from './playlists';
import { preferencesArea } from './preferences';
import { quotasArea } from './quotas';
import { reportsArea } from './reports';
import { provisioningArea } from './provisioning';
import { publicDashboardsArea } from './public-dashboards';
import { queryHistoryArea } from './query-history';
import { recordingRulesArea } from './recording-rules';
import { samlArea } from './saml';
import { searchArea } from './search';
import { serviceAccountsArea } from './serviceaccounts';
import { sessionsArea } from './sessions';
import { signingKeysArea } from './signing-keys';
import { snapshotsArea } from './snapshots';
import { starsArea } from './stars';
import { teamSyncArea } from './team-sync';
import { teamsArea } from './teams';
import { usersArea } from './users';
import type { LegacyArea } from './shared';

/**
 * The legacy API, one area a line, in the order the server mounts them: the server serves these routes, the
 * OpenAPI documents describe them and the authorization matrix test checks them, all from this list.
 */
export const legacyAreas: readonly LegacyArea[] = [
  usersArea,
  sessionsArea,
  samlArea,
  orgsArea,
  orgInvitesArea,
  teamsArea,
  teamSyncArea,
  serviceAccountsArea,
  apiKeysArea,
  dashboardsArea,
  publicDashboardsArea,
  preferencesArea,
  searchArea,
  starsArea,
  permissionsArea,
  accessControlArea,
  foldersArea,
  playlistsArea,
  // Before the data sources: /api/datasources/correlations is no data source id, nor is .../proxy/...
  correlationsArea,
  dataSourceProxyArea,
  dataSourcesArea,
  // After the data sources: /api/datasources/uid/health and /name/health are theirs, not a health check of id "uid".
  dsQueryArea,
  queryHistoryArea,
  snapshotsArea,
  libraryElementsArea,
  annotationsArea,
  encryptionArea,
  provisioningArea,
  adminArea,
  quotasArea,
  signingKeysArea,
  reportsArea,
  recordingRulesArea,
  licensingArea,
];

export { type AdapterDeps, isPublicApiRoute, legacyRouter, type LegacyArea, type LegacyRoute, type ReadAheadRoute, readAheadRoutes, routeName, servedRoutes } from './shared';
