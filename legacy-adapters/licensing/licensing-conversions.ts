import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import type { OrgRole, PermissionLevel } from '../../pkg/auth/authorization/permissions';
import { folderUrl } from '../shared/folder-url';

/** One row of the custom permissions report: the anchor's CustomPermissionsRecordDTO. */
export interface CustomPermissionsRecord {
  /** The dashboard's or folder's deprecated numeric id. */
  id: number;
  uid: string;
  title: string;
  slug: string;
  url: string;
  isFolder: boolean;
  orgId: number;
  granteeName: string;
  granteeType: 'user' | 'team' | 'role';
  granteeUrl: string;
  /** The level granted beyond the basic role: `Edit` or `Admin`. */
  customPermissions: PermissionLevel;
  /** The org role the grantee's users have (a team's: `Viewer`). */
  orgRole: OrgRole;
  /** How many users the grant lifts above their basic role. */
  usersCount: number;
}

/** The CSV's columns, in the DTO's order. */
export const CSV_COLUMNS = ['id', 'uid', 'title', 'slug', 'url', 'isFolder', 'orgId', 'granteeName', 'granteeType', 'granteeUrl', 'customPermissions', 'orgRole', 'usersCount'] as const;

/** Roles below editing: a grant of Edit or Admin to them is beyond what their basic role allows. */
export const isBelowEditor = (role: OrgRole | undefined): boolean => role === 'Viewer' || role === 'None';
/** The levels that lift a Viewer: editing, or administering. */
export const isCustomLevel = (level: PermissionLevel): boolean => level === 'Edit' || level === 'Admin';

/** The object of a record. */
export interface ReportTarget {
  id: number;
  uid: string;
  title: string;
  isFolder: boolean;
  orgId: number;
}

/**
 * A record for a grant on `on`.
 *
 * @example
 *   toRecord({ id: 3, uid: 'd1', title: 'Sales', isFolder: false, orgId: 1 }, { type: 'user', name: 'ana', uid: 'u1' }, 'Edit', 'Viewer', 1).url; // '/d/d1/sales'
 */
export function toRecord(on: ReportTarget, grantee: { type: CustomPermissionsRecord['granteeType']; name: string; uid?: string }, level: PermissionLevel, orgRole: OrgRole, usersCount: number): CustomPermissionsRecord {
  const granteeUrl = grantee.type === 'user' ? `/admin/users/edit/${grantee.uid}` : grantee.type === 'team' ? `/org/teams/edit/${grantee.uid}` : '';
  return {
    id: on.id,
    uid: on.uid,
    title: on.title,
    slug: slugify(on.title),
    url: on.isFolder ? folderUrl(on.uid, on.title) : dashboardUrl(on.uid, on.title),
    isFolder: on.isFolder,
    orgId: on.orgId,
    granteeName: grantee.name,
    granteeType: grantee.type,
    granteeUrl,
    customPermissions: level,
    orgRole,
    usersCount,
  };
}

/**
 * One CSV field: quoted when it holds a comma, quote or line break (quotes doubled, RFC 4180), and a text a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) prefixed with `'`.
 */
export function csvField(value: string | number | boolean): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The report as CSV: a header row of the DTO's field names, then one line per record, CRLF-terminated.
 *
 * @example toCsv([]); // 'id,uid,title,slug,url,isFolder,orgId,granteeName,granteeType,granteeUrl,customPermissions,orgRole,usersCount\r\n'
 */
export function toCsv(records: readonly CustomPermissionsRecord[]): string {
  const lines = [CSV_COLUMNS.join(','), ...records.map((r) => CSV_COLUMNS.map((c) => csvField(r[c])).join(','))];
  return lines.map((l) => `${l}\r\n`).join('');
}
