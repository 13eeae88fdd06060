import {
  authTokenKind, dashboardKind, dataKeyKind, dataSourceKind, folderKind, lastSeenKind, libraryPanelKind, orgKind, orgMemberKind, playlistKind, resourcePermissionKind,
  serviceAccountKind, serviceAccountTokenKind, snapshotKind, starsKind, teamKind, userKind,
} from '../../apis';
import { LibraryElementKind } from '../../apis/dashboard.svc.app/v1beta1/librarypanel';
import { anyKind, isProvisioned, type KindRegistration, type Resource, type SpecOf } from '../meta';
import type { Registry } from '../registry';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The anchor's window of "active": seen in the last 30 days. */
const ACTIVE_MS = 30 * DAY_MS;

/** GET /api/admin/stats (the anchor's AdminStats, spec §2.14): every field an integer. */
export interface AdminStats {
  orgs: number;
  dashboards: number;
  snapshots: number;
  tags: number;
  datasources: number;
  playlists: number;
  stars: number;
  alerts: number;
  users: number;
  admins: number;
  editors: number;
  viewers: number;
  activeUsers: number;
  activeAdmins: number;
  activeEditors: number;
  activeViewers: number;
  dailyActiveUsers: number;
  dailyActiveAdmins: number;
  dailyActiveEditors: number;
  dailyActiveViewers: number;
  monthlyActiveUsers: number;
  activeSessions: number;
  dailyActiveSessions: number;
}

/** What the usage report adds to the stats: counts the stats do not show, and what the stored objects are made of. */
export interface ServerCounts {
  stats: AdminStats;
  folders: number;
  teams: number;
  libraryPanels: number;
  libraryVariables: number;
  provisionedDashboards: number;
  /** Permission entries managed on dashboards, and on folders. */
  dashboardPermissions: number;
  folderPermissions: number;
  serviceAccounts: number;
  serviceAccountTokens: number;
  authTokens: number;
  dataKeys: number;
  /** Data sources by plugin type, and by `<type>.<access>`. */
  dataSourceTypes: Map<string, number>;
  dataSourceAccess: Map<string, number>;
}

/** Where the counted objects are: the served kinds' registry, the identity registry, and the internal kinds'. */
export interface CountedRegistries {
  objects: Registry;
  identity: Registry;
  internal: Registry;
}

type Role = 'Admin' | 'Editor' | 'Viewer';
const RANK: Record<string, number> = { None: 0, Viewer: 1, Editor: 2, Admin: 3 };

/** Every object of a kind in every namespace (no access check): the server's own count, read once. */
const everything = <S>(registry: Registry, kind: KindRegistration<S>): Promise<Resource<SpecOf<S>>[]> => registry.findByLabels(kind, {});

/**
 * Counts the stored objects for `GET /api/admin/stats` and the usage report, as of `now`: plain totals with one
 * counting query per kind (Registry.count); what needs the objects' fields (distinct tags, roles, activity, data source
 * types) from one read of that kind. Users are counted by their highest role across organizations, as the anchor
 * does; active means seen (any request) in the last 30 days, daily in the last 24 hours, monthly since the 1st of
 * the month (UTC); sessions by their last use.
 */
export async function countServer(r: CountedRegistries, now = Date.now()): Promise<ServerCounts> {
  const { objects, identity, internal } = r;
  const [orgs, users, teams, snapshots, playlists, folders, serviceAccounts, serviceAccountTokens, dataKeys] = await Promise.all([
    identity.count(anyKind(orgKind)),
    identity.count(anyKind(userKind)),
    identity.count(anyKind(teamKind)),
    objects.kinds.includes(anyKind(snapshotKind)) ? objects.count(anyKind(snapshotKind)) : 0,
    objects.kinds.includes(anyKind(playlistKind)) ? objects.count(anyKind(playlistKind)) : 0,
    objects.count(anyKind(folderKind)),
    identity.count(anyKind(serviceAccountKind)),
    identity.count(anyKind(serviceAccountTokenKind)),
    internal.count(anyKind(dataKeyKind)),
  ]);
  const [dashboards, dataSources, libraryElements, starLists, userObjects, members, lastSeen, sessions, managed] = await Promise.all([
    everything(objects, dashboardKind),
    objects.kinds.includes(anyKind(dataSourceKind)) ? everything(objects, dataSourceKind) : [],
    objects.kinds.includes(anyKind(libraryPanelKind)) ? everything(objects, libraryPanelKind) : [],
    everything(objects.companion([anyKind(starsKind)]), starsKind),
    everything(identity, userKind),
    everything(identity, orgMemberKind),
    everything(identity, lastSeenKind),
    everything(identity, authTokenKind),
    everything(identity, resourcePermissionKind),
  ]);

  const highest = new Map<number, Role>();
  for (const m of members) {
    const { userId, role } = m.spec;
    if (RANK[role]! > RANK[highest.get(userId) ?? 'None']!) highest.set(userId, role as Role);
  }
  const uidToId = new Map(userObjects.map((u) => [u.spec.uid, Number(u.metadata.name)]));
  const byRole = (ids: Iterable<number>) => {
    const out = { all: 0, Admin: 0, Editor: 0, Viewer: 0 };
    for (const id of ids) {
      out.all++;
      const role = highest.get(id);
      if (role) out[role]++;
    }
    return out;
  };
  const seenSince = (since: number) => [...lastSeen].filter((o) => Date.parse(o.spec.seenAt) >= since).map((o) => uidToId.get(o.metadata.name)).filter((id): id is number => id !== undefined);
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const all = byRole(userObjects.map((u) => Number(u.metadata.name)));
  const active = byRole(seenSince(now - ACTIVE_MS));
  const daily = byRole(seenSince(now - DAY_MS));
  const sessionsSince = (since: number) => sessions.filter((s) => Date.parse(s.spec.seenAt) >= since).length;

  const tags = new Set(dashboards.flatMap((d) => d.spec.tags ?? []).map(String));
  const dataSourceTypes = new Map<string, number>();
  const dataSourceAccess = new Map<string, number>();
  for (const ds of dataSources) {
    const { type, access = 'proxy' } = ds.spec;
    dataSourceTypes.set(type, (dataSourceTypes.get(type) ?? 0) + 1);
    dataSourceAccess.set(`${type}.${access}`, (dataSourceAccess.get(`${type}.${access}`) ?? 0) + 1);
  }
  const permissionsOn = (resource: string) =>
    managed.filter((p) => p.spec.resource.resource === resource).reduce((n, p) => n + p.spec.permissions.length, 0);
  const libraryKind = (k: number) => libraryElements.filter((e) => e.spec.kind === k).length;

  return {
    stats: {
      orgs, dashboards: dashboards.length, snapshots, tags: tags.size, datasources: dataSources.length, playlists,
      stars: starLists.reduce((n, s) => n + s.spec.items.length, 0),
      // No alerting here: no alert rules are stored.
      alerts: 0,
      users, admins: all.Admin, editors: all.Editor, viewers: all.Viewer,
      activeUsers: active.all, activeAdmins: active.Admin, activeEditors: active.Editor, activeViewers: active.Viewer,
      dailyActiveUsers: daily.all, dailyActiveAdmins: daily.Admin, dailyActiveEditors: daily.Editor, dailyActiveViewers: daily.Viewer,
      monthlyActiveUsers: seenSince(monthStart).length,
      activeSessions: sessionsSince(now - ACTIVE_MS), dailyActiveSessions: sessionsSince(now - DAY_MS),
    },
    folders, teams, serviceAccounts, dashboardPermissions: permissionsOn('dashboards'), folderPermissions: permissionsOn('folders'), serviceAccountTokens, dataKeys,
    libraryPanels: libraryKind(LibraryElementKind.panel), libraryVariables: libraryKind(LibraryElementKind.variable),
    provisionedDashboards: dashboards.filter((d) => isProvisioned(d.metadata.annotations)).length,
    authTokens: sessions.length, dataSourceTypes, dataSourceAccess,
  };
}
