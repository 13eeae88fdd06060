import { anyKind, type KindRegistration } from '../pkg/meta';
import { annotationKind } from './annotation.svc.app/v1beta1/annotation';
import { starsKind } from './collections.svc.app/v1alpha1/stars';
import { authTokenKind } from './iam.svc.app/v0alpha1/authtoken';
import { dashboardKind } from './dashboard.svc.app/v1beta1/dashboard';
import { correlationKind } from './correlation.svc.app/v1beta1/correlation';
import { dataSourceKind } from './datasource.svc.app/v1beta1/datasource';
import { folderKind } from './folder.svc.app/v1beta1/folder';
import { libraryPanelKind } from './dashboard.svc.app/v1beta1/librarypanel';
import { lastSeenKind } from './iam.svc.app/v0alpha1/lastseen';
import { loginAttemptKind } from './iam.svc.app/v0alpha1/loginattempt';
import { orgKind } from './iam.svc.app/v0alpha1/org';
import { orgMemberKind } from './iam.svc.app/v0alpha1/orgmember';
import { orgInviteKind } from './iam.svc.app/v0alpha1/orginvite';
import { roleKind } from './iam.svc.app/v0alpha1/role';
import { roleBindingKind } from './iam.svc.app/v0alpha1/rolebinding';
import { serviceAccountKind } from './iam.svc.app/v0alpha1/serviceaccount';
import { serviceAccountTokenKind } from './iam.svc.app/v0alpha1/serviceaccounttoken';
import { teamKind } from './iam.svc.app/v0alpha1/team';
import { teamBindingKind } from './iam.svc.app/v0alpha1/teambinding';
import { teamGroupKind } from './iam.svc.app/v0alpha1/teamgroup';
import { userKind } from './iam.svc.app/v0alpha1/user';
import { playlistKind } from './playlist.svc.app/v1/playlist';
import { preferencesKind } from './preferences.svc.app/v1alpha1/preferences';
import { publicDashboardKind } from './publicdashboard.svc.app/v1/publicdashboard';
export { ACCESS_TOKEN, newAccessToken, PUBLIC_DASHBOARD_LABELS, publicDashboardError, SHARE_TYPES } from './publicdashboard.svc.app/v1/publicdashboard';
import { queryHistoryKind } from './queryhistory.svc.app/v0alpha1/queryhistory';
import { snapshotKind } from './dashboard.svc.app/v1beta1/snapshot';
export { DELETE_KEY_LABEL, deleteKeyLabel, EXPIRES_LABEL, isExpired, KEY_LABEL, randomSnapshotKey, SECURE_DASHBOARD, SNAPSHOT_KEY } from './dashboard.svc.app/v1beta1/snapshot';
import { resourcePermissionKind } from './iam.svc.app/v0alpha1/resourcepermission';
import { dataKeyKind } from './secret.svc.app/v0alpha1/datakey';
import { signingKeyKind } from './secret.svc.app/v0alpha1/signingkey';
import { recordingRuleKind } from './recordingrules.svc.app/v0alpha1/recordingrule';
import { recordingRuleWriterKind } from './recordingrules.svc.app/v0alpha1/recordingrulewriter';
import { settingKind } from './settings.svc.app/v0alpha1/setting';
import { quotaKind } from './settings.svc.app/v0alpha1/quota';
import { reportKind } from './reporting.svc.app/v0alpha1/report';
export { EMAIL_ADDRESS, REPORT_FORMATS, REPORT_USER_LABEL, type ReportSchedule, type ReportSpec, reportSpecSchema } from './reporting.svc.app/v0alpha1/report';
import { reportSettingsKind } from './reporting.svc.app/v0alpha1/reportsettings';
export { REPORT_SETTINGS_NAME, type ReportBranding, type ReportSettingsSpec, reportSettingsSpecSchema } from './reporting.svc.app/v0alpha1/reportsettings';
import { licenseKind } from './settings.svc.app/v0alpha1/license';

export {
  annotationKind,
  authTokenKind,
  correlationKind,
  dashboardKind,
  dataKeyKind,
  dataSourceKind,
  folderKind,
  lastSeenKind,
  libraryPanelKind,
  licenseKind,
  loginAttemptKind,
  orgInviteKind,
  orgKind,
  orgMemberKind,
  playlistKind,
  preferencesKind,
  publicDashboardKind,
  queryHistoryKind,
  quotaKind,
  reportKind,
  reportSettingsKind,
  recordingRuleKind,
  recordingRuleWriterKind,
  roleBindingKind,
  roleKind,
  resourcePermissionKind,
  serviceAccountKind,
  serviceAccountTokenKind,
  settingKind,
  signingKeyKind,
  snapshotKind,
  starsKind,
  teamBindingKind,
  teamGroupKind,
  teamKind,
  userKind,
};

/** Every kind the server serves. Adding a kind is its folder plus one line here. */
export const allKinds: readonly KindRegistration[] = [anyKind(folderKind), anyKind(dashboardKind), anyKind(playlistKind), anyKind(dataSourceKind), anyKind(correlationKind), anyKind(snapshotKind), anyKind(libraryPanelKind), anyKind(annotationKind), anyKind(publicDashboardKind)];

/**
 * The kinds not (yet) served under /apis, whose clients are the legacy /api endpoints: the identity kinds (users,
 * organizations, memberships, invites, teams, custom roles, service accounts and their tokens, managed permissions, login
 * sessions and failed logins, last activity, preferences), stored by the identity registry whatever the feature
 * toggles say, and stars, kept beside the objects they point at (pkg/stars).
 */
export const identityKinds: readonly KindRegistration[] = [
  anyKind(userKind),
  anyKind(orgKind),
  anyKind(orgMemberKind),
  anyKind(orgInviteKind),
  anyKind(teamKind),
  anyKind(teamBindingKind),
  anyKind(teamGroupKind),
  anyKind(serviceAccountKind),
  anyKind(serviceAccountTokenKind),
  anyKind(roleKind),
  anyKind(roleBindingKind),
  anyKind(resourcePermissionKind),
  anyKind(authTokenKind),
  anyKind(loginAttemptKind),
  anyKind(lastSeenKind),
  anyKind(preferencesKind),
  anyKind(starsKind),
  anyKind(queryHistoryKind),
];

/**
 * Kinds the server keeps for itself, never served under /apis and with no legacy route as their client: the data
 * keys of the envelope encryption (pkg/secrets), stored by the secrets service's own registry, and the settings kept
 * in the database (pkg/settings), the quota limits set over `[quota]` (pkg/quotas), and the keys the server signs
 * with, whose public halves `GET /api/signing-keys/keys` publishes (pkg/signingkeys). Also the enterprise edition's
 * reports and their settings (pkg/reports), whose clients are the reporting routes (legacy-adapters/reports), and its
 * recording rules and their remote write target, whose client is `/api/recording-rules` (pkg/recording-rules), and its
 * license (pkg/licensing).
 */
export const internalKinds: readonly KindRegistration[] = [anyKind(dataKeyKind), anyKind(settingKind), anyKind(quotaKind), anyKind(signingKeyKind), anyKind(reportKind), anyKind(reportSettingsKind), anyKind(recordingRuleKind), anyKind(recordingRuleWriterKind), anyKind(licenseKind)];
