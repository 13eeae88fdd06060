import type { Request, Response } from 'express';
import { folderKind } from '../../apis';
import { folderScope } from '../../pkg/auth/authorization/permissions';
import type { IdentityDirectory } from '../../pkg/auth/identity/identity-directory';
import { writerLogins } from '../../pkg/auth/identity/identity-logins';
import type { ServiceAccounts } from '../../pkg/auth/identity/service-accounts';
import { notFoundAsUndefined } from '../../pkg/errors';
import { Annotations, anyKind, Labels, randomUid, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { type AdapterDeps, idParam, positiveQueryInt } from '../shared';
import {
  type FolderDTO,
  FolderMessages,
  type FolderParent,
  folderBody,
  folderNotFound,
  fromSearchHit,
  expectedGenerationOf,
  movedFolder,
  parentUidOf,
  parseCreateFolderCommand,
  parseMoveFolderCommand,
  parseUpdateFolderCommand,
  redactedParent,
  toDescendantCounts,
  toFolderDTO,
  toFolderSearchHit,
  updatedFolder,
} from './folders-conversions';

const FOLDERS = anyKind(folderKind);

/** `GET /api/folders` answers this many folders when `limit` is absent or not a positive integer (spec §8). */
export const DEFAULT_FOLDER_LIMIT = 1000;

/** Deeper than this a parent chain is treated as broken rather than walked forever (the registry's own bound). */
const MAX_DEPTH = 64;

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
    accounts: ServiceAccounts,
  ) {
    this.ctx = requestContext(req, registry);
    this.login = writerLogins(users, accounts, req.user!.orgId);
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

/**
 * The legacy folder API (spec §4.2) as a client of the Folder kind: each route binds the legacy body, calls the
 * registry as the caller (so its rules on parents, cycles, cascades, versions, numeric ids and permissions apply as
 * they do under /apis) and answers the anchor's records. Writes first ask the permission the anchor declares on the
 * route (403 naming it); the registry checks each object again.
 */
const view = (req: Request, { registry, users, accounts }: AdapterDeps) => new FolderView(req, registry, users, accounts);

export async function getFolders(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const parentUid = typeof req.query.parentUid === 'string' ? req.query.parentUid : '';
  if (parentUid) await deps.registry.get(v.ctx, FOLDERS, parentUid);
  const limit = positiveQueryInt(req.query.limit, DEFAULT_FOLDER_LIMIT);
  const page = positiveQueryInt(req.query.page, 1);
  // One page read from the search index in its title order (case folded, then uid, as /api/search), the folders
  // the caller may not read dropped before paging: page N is the N-th `limit` the caller sees.
  const hits = await deps.registry.search(v.ctx, { kinds: [FOLDERS], folders: [parentUid], order: 'asc', offset: (page - 1) * limit, limit });
  res.json(hits.map(fromSearchHit));
}

export async function getFolderByID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const id = idParam(req, 'id');
  const found = await deps.registry.list(v.ctx, FOLDERS, { labelSelector: `${Labels.deprecatedInternalID}=${id}` });
  if (!found.items[0]) throw folderNotFound();
  res.json(await v.record(found.items[0]));
}

export async function getFolderByUID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  res.json(await v.record(await deps.registry.get(v.ctx, FOLDERS, String(req.params.uid))));
}

export async function createFolder(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const cmd = parseCreateFolderCommand(req.body);
  const created = await deps.registry.create(v.ctx, FOLDERS, folderBody({ ...cmd, uid: cmd.uid || randomUid() }));
  res.json(await v.record(created));
}

export async function updateFolder(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const uid = String(req.params.uid);
  const v = view(req, deps);
  const cmd = parseUpdateFolderCommand(req.body);
  // Read, checked and written in one registry update: a change between them is still caught (the folder kind's
  // conflict is the 412 version-mismatch).
  const updated = await deps.registry.patch(v.ctx, FOLDERS, uid, (current) => updatedFolder(current, cmd), { expectedGeneration: expectedGenerationOf(cmd) });
  res.json(await v.record(updated));
}

export async function deleteFolder(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  // forceDeleteRules: no alert rules are stored, so none can block the delete (the registry cascades the rest).
  const deleted = (await deps.registry.delete(v.ctx, FOLDERS, String(req.params.uid))) as Resource;
  const { id, title } = toFolderSearchHit(deleted);
  res.json({ message: FolderMessages.deleted, id, title });
}

export async function moveFolder(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const { parentUid } = parseMoveFolderCommand(req.body);
  const moved = await deps.registry.patch(v.ctx, FOLDERS, String(req.params.uid), (current) => movedFolder(current, parentUid));
  res.json(await v.record(moved));
}

export async function getFolderDescendantCounts(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  res.json(toDescendantCounts(await deps.registry.descendantCounts(v.ctx, String(req.params.uid))));
}
