import { type Request, type Response, Router } from 'express';
import { folderKind } from '../../apis';
import { folderScope } from '../../pkg/auth/permissions';
import { requireAccess } from '../../pkg/auth/require-access';
import { type IdentityDirectory, randomUid } from '../../pkg/auth/identity-directory';
import { notFoundAsUndefined } from '../../pkg/errors';
import { Annotations, anyKind, Labels, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import { requestContext } from '../../pkg/server/request-context';
import { idParam } from '../users/users-routes';
import {
  type FolderDTO,
  FolderMessages,
  type FolderParent,
  folderBody,
  folderNotFound,
  isStaleVersion,
  legacyFolderError,
  movedFolder,
  parentUidOf,
  parseCreateFolderCommand,
  parseMoveFolderCommand,
  parseUpdateFolderCommand,
  redactedParent,
  toFolderDTO,
  toFolderSearchHit,
  updatedFolder,
} from './folders-conversions';

const FOLDERS = anyKind(folderKind);

/** `GET /api/folders` answers this many folders when `limit` is absent or not a positive integer (spec §8). */
export const DEFAULT_FOLDER_LIMIT = 1000;

/** Deeper than this a parent chain is treated as broken rather than walked forever (the registry's own bound). */
const MAX_DEPTH = 64;

/** A positive integer query parameter, or `fallback` when absent or anything else (the anchor's lenient parsing). */
function positiveInt(v: unknown, fallback: number): number {
  const n = typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : 0;
  return n > 0 ? n : fallback;
}

/** Who `user:<uid>` is, by login, as the anchor shows createdBy/updatedBy; "Anonymous" for anyone else. */
function loginResolver(users: IdentityDirectory): (identity: string | undefined) => Promise<string> {
  const memo = new Map<string, Promise<string>>();
  const resolve = async (identity: string) => {
    if (!identity.startsWith('user:')) return 'Anonymous';
    return (await users.userByUid(identity.slice('user:'.length)))?.login ?? 'Anonymous';
  };
  return (identity) => {
    if (!identity) return Promise.resolve('Anonymous');
    let login = memo.get(identity);
    if (!login) memo.set(identity, (login = resolve(identity)));
    return login;
  };
}

/**
 * One request's view of folders: the registry called as the caller, and records built from the caller's real
 * permissions. The parent chain is read without the caller's checks only to learn its shape: a parent the caller
 * may not read leaves as {@link redactedParent}, nothing of it is shown.
 */
class FolderView {
  readonly ctx: RequestContext;
  private readonly login: (identity: string | undefined) => Promise<string>;

  constructor(
    private readonly req: Request,
    private readonly registry: Registry,
    users: IdentityDirectory,
  ) {
    this.ctx = requestContext(req);
    this.login = loginResolver(users);
  }

  /** Whether the caller may do `action` on `folder`; its parent is handed over so inheritance needs no re-read. */
  private can(action: string, folder: Resource): Promise<boolean> {
    const target = { scope: folderScope(folder.metadata.name), folder: parentUidOf(folder) };
    return this.req.access ? this.req.access.can(action, target) : Promise.resolve(false);
  }

  /** The record of a folder; `withParents` adds the chain of a nested folder. */
  async record(obj: Resource, withParents = true): Promise<FolderDTO> {
    const { [Annotations.createdBy]: creator, [Annotations.updatedBy]: updater = creator } = obj.metadata.annotations ?? {};
    const [canSave, canAdmin, canDelete, createdBy, updatedBy] = await Promise.all([
      this.can('folders:write', obj),
      this.can('folders.permissions:write', obj),
      this.can('folders:delete', obj),
      this.login(creator),
      this.login(updater),
    ]);
    const parents = withParents && parentUidOf(obj) ? await this.parents(obj) : undefined;
    return toFolderDTO(obj, { access: { canSave, canEdit: canSave, canAdmin, canDelete }, createdBy, updatedBy, parents });
  }

  /** The parents of a folder, root first, each as the caller may see it. */
  private async parents(obj: Resource): Promise<FolderParent[]> {
    const chain: Resource[] = [];
    const seen = new Set([obj.metadata.name]);
    let uid = parentUidOf(obj);
    while (uid && !seen.has(uid) && chain.length < MAX_DEPTH) {
      seen.add(uid);
      const parent = await this.registry.get(this.treeContext(), FOLDERS, uid).catch(notFoundAsUndefined);
      if (!parent) break;
      chain.unshift(parent);
      uid = parentUidOf(parent);
    }
    return Promise.all(chain.map(async (p) => ((await this.can('folders:read', p)) ? this.record(p, false) : redactedParent())));
  }

  /** The caller's context without its access checks: for reading the shape of the tree, never for answering. */
  private treeContext(): RequestContext {
    return { ...this.ctx, access: undefined };
  }
}

/** Runs a route, answering the registry's errors in the anchor's words. */
const route = (fn: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
  try {
    await fn(req, res);
  } catch (err) {
    throw legacyFolderError(err);
  }
};

/**
 * The legacy folder API (spec §4.2) as a client of the Folder kind: each route binds the legacy body, calls the
 * registry as the caller (so its rules on parents, cycles, cascades, versions, numeric ids and permissions apply as
 * they do under /apis) and answers the anchor's records. Writes first ask the permission the anchor declares on the
 * route (403 naming it); the registry checks each object again.
 *
 * @example app.use(legacyFoldersRouter(registry, users));
 */
export function legacyFoldersRouter(registry: Registry, users: IdentityDirectory): Router {
  const router = Router();
  const view = (req: Request) => new FolderView(req, registry, users);

  router.get(
    '/api/folders',
    route(async (req, res) => {
      const v = view(req);
      const parentUid = typeof req.query.parentUid === 'string' ? req.query.parentUid : '';
      if (parentUid) await registry.get(v.ctx, FOLDERS, parentUid);
      const limit = positiveInt(req.query.limit, DEFAULT_FOLDER_LIMIT);
      const page = positiveInt(req.query.page, 1);
      const children = (await registry.list(v.ctx, FOLDERS, { folder: parentUid })).items.map(toFolderSearchHit);
      children.sort((a, b) => a.title.localeCompare(b.title) || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
      res.json(children.slice((page - 1) * limit, page * limit));
    }),
  );

  router.get(
    '/api/folders/id/:id',
    route(async (req, res) => {
      const v = view(req);
      const id = idParam(req, 'id');
      const found = await registry.list(v.ctx, FOLDERS, { labelSelector: `${Labels.deprecatedInternalID}=${id}` });
      if (!found.items[0]) throw folderNotFound();
      res.json(await v.record(found.items[0]));
    }),
  );

  router.get(
    '/api/folders/:uid',
    route(async (req, res) => {
      const v = view(req);
      res.json(await v.record(await registry.get(v.ctx, FOLDERS, String(req.params.uid))));
    }),
  );

  router.post(
    '/api/folders',
    route(async (req, res) => {
      await requireAccess(req, 'folders:create');
      const v = view(req);
      const cmd = parseCreateFolderCommand(req.body);
      const created = await registry.create(v.ctx, FOLDERS, folderBody({ ...cmd, uid: cmd.uid || randomUid() }));
      res.json(await v.record(created));
    }),
  );

  router.put(
    '/api/folders/:uid',
    route(async (req, res) => {
      const uid = String(req.params.uid);
      await requireAccess(req, 'folders:write', folderScope(uid));
      const v = view(req);
      const cmd = parseUpdateFolderCommand(req.body);
      // Read, checked and written in one registry update: a change between them is still caught.
      const updated = await registry.patch(v.ctx, FOLDERS, uid, (current) => {
        if (isStaleVersion(current, cmd)) throw FOLDERS.conflictError!(uid);
        return updatedFolder(current, cmd);
      });
      res.json(await v.record(updated));
    }),
  );

  router.delete(
    '/api/folders/:uid',
    route(async (req, res) => {
      await requireAccess(req, 'folders:delete', folderScope(String(req.params.uid)));
      const v = view(req);
      // forceDeleteRules: no alert rules are stored, so none can block the delete (the registry cascades the rest).
      const deleted = (await registry.delete(v.ctx, FOLDERS, String(req.params.uid))) as Resource;
      const { id, title } = toFolderSearchHit(deleted);
      res.json({ message: FolderMessages.deleted, id, title });
    }),
  );

  router.post(
    '/api/folders/:uid/move',
    route(async (req, res) => {
      await requireAccess(req, 'folders:write', folderScope(String(req.params.uid)));
      const v = view(req);
      const { parentUid } = parseMoveFolderCommand(req.body);
      const moved = await registry.patch(v.ctx, FOLDERS, String(req.params.uid), (current) => movedFolder(current, parentUid));
      res.json(await v.record(moved));
    }),
  );

  return router;
}
