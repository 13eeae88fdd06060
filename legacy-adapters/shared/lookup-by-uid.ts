import { teamKind, userKind } from '../../apis';
import type { Grantee } from '../../pkg/auth/authorization/permissions';
import { IDENTITY_NAMESPACE, type IdentityDirectory, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { Labels } from '../../pkg/meta';

/** What a legacy record shows of a user it names by uid. */
export interface NamedUser {
  id: number;
  uid: string;
  login: string;
  email: string;
}

/**
 * The users whose uids are `uids`, by uid, read in one query over the user kind's declared `uid` field: a route that
 * names the users of its items (permissions, snapshots) reads those users, never the whole directory. Unknown uids
 * are absent.
 *
 * @example (await usersByUid(deps.users, ['ab12'])).get('ab12')?.login // 'ana'
 */
export async function usersByUid(users: IdentityDirectory, uids: Iterable<string>): Promise<Map<string, NamedUser>> {
  const wanted = [...new Set(uids)];
  if (!wanted.length) return new Map();
  const ctx = { requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'svc-identity' };
  const { items } = await users.registry.page(ctx, userKind, { where: { uid: wanted } });
  return new Map(
    items.map((obj) => {
      const { uid, login, email } = obj.spec;
      return [uid, { id: Number(obj.metadata.name), uid, login, email }];
    }),
  );
}

/** What a legacy record shows of a team it names by uid. */
export interface NamedTeam {
  id: number;
  uid: string;
  name: string;
  email: string;
}

/**
 * The teams of organization `orgId` whose uids (their object names) are `uids`, by uid, read in one query.
 *
 * @example (await teamsByUid(deps.users, 1, ['ops-uid'])).get('ops-uid')?.name // 'Ops'
 */
export async function teamsByUid(users: IdentityDirectory, orgId: number, uids: Iterable<string>): Promise<Map<string, NamedTeam>> {
  const wanted = [...new Set(uids)];
  if (!wanted.length) return new Map();
  const { items } = await users.registry.page(users.inOrg(SYSTEM, orgId), teamKind, { names: wanted });
  return new Map(
    items.map((obj) => {
      const { name, email } = obj.spec;
      const id = Number(obj.metadata.labels?.[Labels.deprecatedInternalID]);
      return [obj.metadata.name, { id, uid: obj.metadata.name, name, email }];
    }),
  );
}

/** Who a permission item is for, as legacy records show it; undefined for a role, or a user or team that is gone. */
export type GranteeInfo = { userId: number; login: string; email: string } | { teamId: number; name: string; email: string } | undefined;

/**
 * Who each of `grantees` is: the users and teams of organization `orgId` they name, read in one query each (only
 * those), for the permission lists of dashboards, folders and data sources.
 *
 * @example const who = await granteeDirectory(deps.users, 1, items.map((i) => i.grantee)); who(item.grantee)?.login
 */
export async function granteeDirectory(users: IdentityDirectory, orgId: number, grantees: readonly Grantee[]): Promise<(g: Grantee) => GranteeInfo> {
  const uidsOf = (kind: Grantee['kind']) => grantees.flatMap((g) => (g.kind === kind && 'uid' in g ? [g.uid] : []));
  const [byUser, byTeam] = await Promise.all([usersByUid(users, uidsOf('user')), teamsByUid(users, orgId, uidsOf('team'))]);
  return (g) => {
    if (g.kind === 'user') {
      const u = byUser.get(g.uid);
      return u && { userId: u.id, login: u.login, email: u.email };
    }
    if (g.kind === 'team') {
      const t = byTeam.get(g.uid);
      return t && { teamId: t.id, name: t.name, email: t.email };
    }
    return undefined;
  };
}
