import type { RequestHandler } from 'express';
import { Annotations, type KindRegistration, type Resource } from '../meta';
import type { AccessCheck, Registry, RequestContext } from '../registry';
import { namespaceOf } from '../server/namespaces';
import { Authorizer, type FolderTree, type ManagedPermissionSource, type PermissionSource, type RoleSource } from './authorizer';
import type { Identity } from './basic-auth';
import type { Subject } from './permissions';

/** The teams a user belongs to in an org (teams feed managed permissions and custom roles). */
export interface TeamMembership {
  teamUidsOf(orgId: number, userUid: string): Promise<string[]>;
}

export interface AccessControlOptions {
  /** The registry of folders and dashboards: the folder tree is read from it. */
  registry: Registry;
  managed?: ManagedPermissionSource;
  /** Enterprise custom roles. */
  roles?: RoleSource;
  teams?: TeamMembership;
  /** Permissions that come with memberships (a team's members read the team). */
  sources?: readonly PermissionSource[];
}

/**
 * The caller's identity as the authorizer sees it. `identity` is `<type>:<uid>` (`user:ab12`,
 * `service-account:cd34`, `anonymous:…`).
 */
export function subjectKindOf(identity: string): Subject['kind'] {
  if (identity.startsWith('service-account:')) return 'service-account';
  if (identity.startsWith('anonymous:')) return 'anonymous';
  return 'user';
}

/**
 * Authorization, wired: one {@link Authorizer} over the stored folder tree, managed permissions, custom roles and
 * teams, and the per-request {@link AccessCheck} the registry and the legacy adapters ask. Every endpoint goes
 * through it; no adapter decides access itself.
 *
 * @example
 *   const access = new AccessControl({ registry });
 *   app.use(['/api', '/apis'], attachAccess(access)); // after authentication and org selection
 *   await req.access!.can('dashboards:write', dashboardScope(uid));
 */
export class AccessControl {
  readonly authorizer: Authorizer;

  constructor(private readonly options: AccessControlOptions) {
    this.authorizer = new Authorizer({ tree: registryFolderTree(options.registry), managed: options.managed, roles: options.roles, sources: options.sources });
  }

  /** The subject of an authenticated caller in the org it acts in. */
  async subjectOf(user: Identity): Promise<Subject> {
    const kind = subjectKindOf(user.identity);
    const uid = user.identity.slice(user.identity.indexOf(':') + 1);
    const teamUids = kind === 'user' && this.options.teams ? await this.options.teams.teamUidsOf(user.orgId, uid) : [];
    return { kind, uid, orgId: user.orgId, orgRole: user.orgRole ?? 'None', isServerAdmin: kind === 'user' && user.isServerAdmin, teamUids };
  }

  /** The access check of one caller; the subject is worked out once, on first use. */
  forIdentity(user: Identity): AccessCheck {
    let subject: Promise<Subject> | undefined;
    const get = () => (subject ??= this.subjectOf(user));
    return {
      can: async (action, scope = '') => this.authorizer.can(await get(), action, scope),
      filter: async (action, candidates, scopeOf) => this.authorizer.filter(await get(), action, candidates, scopeOf),
    };
  }
}

/** Sets `req.access` from `req.user`: mount after authentication and organization selection. */
export function attachAccess(access: AccessControl): RequestHandler {
  return (req, _res, next) => {
    if (req.user) req.access = access.forIdentity(req.user);
    next();
  };
}

/** The folder tree as stored: parents through the `svc.app/folder` annotation, read without access checks. */
export function registryFolderTree(registry: Registry): FolderTree {
  const folderKind = registry.kinds.find((k) => k.isFolder);
  const dashboardKind = registry.kinds.find((k) => k.inFolder && !k.isFolder && k.access?.resource === 'dashboards');
  const system = (orgId: number): RequestContext => ({ requester: { identity: 'service:access-control' }, namespace: namespaceOf(orgId), fieldManager: 'svc-access' });
  const read = async (kind: KindRegistration | undefined, name: string, orgId: number): Promise<Resource | undefined> => {
    if (!kind) return undefined;
    return registry.get(system(orgId), kind, name).catch(() => undefined);
  };
  return {
    async ancestorsOf(folderUid, orgId) {
      const out: string[] = [];
      const seen = new Set([folderUid]);
      let parent = (await read(folderKind, folderUid, orgId))?.metadata.annotations?.[Annotations.folder];
      while (parent && !seen.has(parent)) {
        out.push(parent);
        seen.add(parent);
        parent = (await read(folderKind, parent, orgId))?.metadata.annotations?.[Annotations.folder];
      }
      return out;
    },
    async folderOf(dashboardUid, orgId) {
      return (await read(dashboardKind, dashboardUid, orgId))?.metadata.annotations?.[Annotations.folder];
    },
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The caller's permissions (attachAccess). */
      access?: AccessCheck;
    }
  }
}
