import type { Request, Response } from 'express';
import { dashboardKind as typedDashboardKind, folderKind as typedFolderKind, libraryPanelKind } from '../../apis';
import { notFoundAsUndefined, StatusError } from '../../pkg/errors';
import { Annotations, anyKind, Labels, randomUid } from '../../pkg/meta';
import type { PageRequest, RequestContext } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { type AdapterDeps, type NamedUser, usersByUid } from '../shared';
import { avatarUrl } from '../users/users-conversions';
import {
  type ElementContext,
  type FolderChoice,
  folderUidOf,
  LibraryElementMessages,
  legacyIdOf,
  type LibraryElementObject,
  type MetaUser,
  NO_USER,
  parseCreateCommand,
  parseElementSearch,
  parsePatchCommand,
  elementPage,
  toConnectionDTO,
  toElementDTO,
  toNewElement,
  toPatchedElement,
} from './library-elements-conversions';

const ELEMENTS = libraryPanelKind;
const DASHBOARDS = anyKind(typedDashboardKind);
const FOLDERS = anyKind(typedFolderKind);

const GENERAL_FOLDER = { id: 0, uid: '', title: 'General' };
const USER = 'user:';

/** The identities that created and last updated an element (or a dashboard). */
function writersOf(obj: { metadata: { annotations?: Record<string, string> } }): string[] {
  const { [Annotations.createdBy]: creator = '', [Annotations.updatedBy]: updater = creator } = obj.metadata.annotations ?? {};
  return [creator, updater];
}

const metaUser = (u: NamedUser | undefined): MetaUser => (u ? { id: u.id, name: u.login, avatarUrl: avatarUrl(u.email) } : NO_USER);

/**
 * One request's view of library elements: the registry called as the caller, and the anchor's DTOs built with the
 * folders, users and connections they show, each looked up once per request.
 */
class ElementView {
  readonly ctx: RequestContext;
  private readonly folders = new Map<string, Promise<ElementContext['folder']>>();
  private readonly users = new Map<string, Promise<MetaUser>>();

  constructor(
    req: Request,
    private readonly deps: AdapterDeps,
  ) {
    this.ctx = requestContext(req, deps.registry);
  }

  /** One page of the elements the caller may read, selected, sorted and counted by the database (see elementPage). */
  async page(req: PageRequest): Promise<{ items: LibraryElementObject[]; totalCount: number }> {
    const { items, totalCount } = await this.deps.registry.page(this.ctx, ELEMENTS, req);
    return { items: items as LibraryElementObject[], totalCount };
  }

  /** The folder a command names, as a uid ('' = the root; undefined: none named). A deprecated id must name a folder the caller reads. */
  async folderUid(choice: FolderChoice): Promise<string | undefined> {
    if (!choice || 'uid' in choice) return choice?.uid;
    const page = await this.deps.registry.list(this.ctx, FOLDERS, { labelSelector: `${Labels.deprecatedInternalID}=${choice.id}`, limit: 1 });
    if (!page.items[0]) throw StatusError.badRequest(LibraryElementMessages.folderNotFound);
    return page.items[0].metadata.name;
  }

  /** The uids of the folders numbered `ids` the caller may read (0 = the root). */
  async folderUidsOf(ids: readonly number[]): Promise<string[]> {
    const named = ids.filter((id) => id > 0);
    const uids = ids.includes(0) ? [''] : [];
    if (!named.length) return uids;
    const page = await this.deps.registry.list(this.ctx, FOLDERS, { labelSelector: `${Labels.deprecatedInternalID} in (${named.join(',')})` });
    return [...uids, ...page.items.map((f) => f.metadata.name)];
  }

  /** The DTOs of `elements`, in their order, with their connections counted in one read and their writers in another. */
  async dtos(elements: readonly LibraryElementObject[]) {
    const references = await this.deps.registry.referrers(this.ctx, ELEMENTS, elements.map((e) => e.metadata.name));
    this.readUsers(elements.flatMap((e) => writersOf(e)));
    const count = (name: string) => references.filter((r) => r.to.name === name).length;
    const orgId = this.deps.registry.namespaces.orgIdOf(this.ctx.namespace) ?? 0;
    return Promise.all(
      elements.map(async (e) => {
        const [creator, updater] = writersOf(e);
        const [folder, createdBy, updatedBy] = await Promise.all([this.folder(folderUidOf(e)), this.user(creator), this.user(updater)]);
        return toElementDTO(e, { orgId, folder, connectedDashboards: count(e.metadata.name), createdBy, updatedBy });
      }),
    );
  }

  async dto(element: LibraryElementObject) {
    return (await this.dtos([element]))[0];
  }

  /** The folder an element shows: one the caller may not read by its uid alone. */
  folder(uid: string): Promise<ElementContext['folder']> {
    if (!uid) return Promise.resolve(GENERAL_FOLDER);
    let found = this.folders.get(uid);
    if (!found) {
      found = this.deps.registry.get(this.ctx, FOLDERS, uid).then(
        (f) => ({ id: legacyIdOf(f), uid, title: String(f.spec.title ?? '') }),
        (err: unknown) => {
          if (err instanceof StatusError && (err.code === 403 || err.code === 404)) return { id: 0, uid, title: '' };
          throw err;
        },
      );
      this.folders.set(uid, found);
    }
    return found;
  }

  /** Reads the users of `identities` not yet read, in one query (what {@link user} then answers from). */
  readUsers(identities: readonly string[]): void {
    const uids = [...new Set(identities.filter((i) => i.startsWith(USER) && !this.users.has(i)).map((i) => i.slice(USER.length)))];
    if (!uids.length) return;
    const found = usersByUid(this.deps.users, uids);
    for (const uid of uids) this.users.set(`${USER}${uid}`, found.then((byUid) => metaUser(byUid.get(uid))));
  }

  /** `{id, name, avatarUrl}` of a stored identity (`user:<uid>`); anyone else shows empty. */
  user(identity: string): Promise<MetaUser> {
    if (!this.users.has(identity)) this.readUsers([identity]);
    return this.users.get(identity) ?? Promise.resolve(NO_USER);
  }
}

/**
 * The legacy library element API (spec §4.6) as a client of the LibraryPanel kind: each route binds the legacy
 * body, calls the registry as the caller (its folder rules, unique names, versions, numeric ids, permissions and
 * connections apply as under /apis) and answers the anchor's `{result: ...}` records.
 */
const view = (req: Request, deps: AdapterDeps) => new ElementView(req, deps);

export async function searchLibraryElements(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const q = parseElementSearch(req.query as Record<string, unknown>);
  const folderUids = q.folderIds ? await v.folderUidsOf(q.folderIds) : q.folderUids;
  const { totalCount, items } = await v.page(elementPage({ ...q, folderUids }));
  res.json({ result: { totalCount, elements: await v.dtos(items), page: q.page, perPage: q.perPage } });
}

export async function getLibraryElement(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  res.json({ result: await v.dto(await deps.registry.get(v.ctx, ELEMENTS, String(req.params.uid))) });
}

export async function getLibraryElementsByName(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const name = String(req.params.name);
  const found = (await v.page({ where: { name } })).items;
  if (!found.length) throw new StatusError(404, 'NotFound', LibraryElementMessages.notFound);
  res.json({ result: await v.dtos(found) });
}

export async function getLibraryElementConnections(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const element = await deps.registry.get(v.ctx, ELEMENTS, String(req.params.uid));
  const references = await deps.registry.referrers(v.ctx, ELEMENTS, [element.metadata.name]);
  const dashboards = references.filter((r) => r.from.group === DASHBOARDS.group && r.from.resource === DASHBOARDS.plural);
  // Dashboards the caller may not read are not shown (the count in `meta` still has them); one deleted since is gone.
  const shown = (await Promise.all(dashboards.map((r) => deps.registry.get(v.ctx, DASHBOARDS, r.from.name).catch(hiddenAsUndefined)))).filter((d) => d !== undefined);
  // Each connection shows who last wrote its dashboard: those users read in one query.
  const by = shown.map((d) => writersOf(d)[1]);
  v.readUsers(by);
  res.json({ result: await Promise.all(shown.map(async (d, i) => toConnectionDTO(element, d, await v.user(by[i])))) });
}

export async function createLibraryElement(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const cmd = parseCreateCommand(req.body);
  const folderUid = (await v.folderUid(cmd.folder)) ?? '';
  const created = await deps.registry.create(v.ctx, ELEMENTS, toNewElement(cmd, cmd.uid ?? randomUid(), folderUid));
  res.json({ result: await v.dto(created) });
}

export async function patchLibraryElement(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const uid = String(req.params.uid);
  const cmd = parsePatchCommand(req.body);
  if (cmd.uid !== undefined && cmd.uid !== uid) throw StatusError.badRequest(LibraryElementMessages.uidChange);
  const folderUid = await v.folderUid(cmd.folder);
  // The version is checked in the registry's locked read-modify-write: a change between read and write is still a 412.
  const patched = await deps.registry.patch(v.ctx, ELEMENTS, uid, (current) => toPatchedElement(current, cmd, folderUid), { expectedGeneration: cmd.version });
  res.json({ result: await v.dto(patched) });
}

export async function deleteLibraryElement(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = view(req, deps);
  const uid = String(req.params.uid);
  const element = await deps.registry.get(v.ctx, ELEMENTS, uid);
  // Refused (403 "the library element has connections") while a dashboard uses it, in the delete's transaction.
  await deps.registry.delete(v.ctx, ELEMENTS, uid, { preconditions: { uid: element.metadata.uid } });
  res.json({ message: LibraryElementMessages.deleted, id: legacyIdOf(element) });
}

function hiddenAsUndefined(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 403) return undefined;
  return notFoundAsUndefined(err);
}
