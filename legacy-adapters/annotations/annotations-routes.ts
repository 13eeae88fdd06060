import type { Request, Response } from 'express';
import { annotationKind as typedAnnotationKind, dashboardKind as typedDashboardKind } from '../../apis';
import { ANNOTATION_LABELS, type AnnotationSpec, parseTag, tagFilterLabel } from '../../apis/annotation.svc.app/v1beta1/annotation';
import { StatusError } from '../../pkg/errors';
import { anyKind, Labels, labelKey, type Resource } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { avatarUrl } from '../users/users-conversions';
import { type AdapterDeps, bind, findByInternalId, positiveQueryInt, queryInt, queryString, requestContext } from '../shared';
import {
  type AnnotationAuthor,
  byLatest,
  graphiteCommand,
  graphiteTags,
  graphiteText,
  massDeleteCommand,
  newAnnotationSpec,
  patchedSpec,
  postCommand,
  tagCounts,
  toAnnotationDTO,
  updateCommand,
  updatedSpec,
  type UpdateCommand,
} from './annotations-conversions';

/**
 * Annotations (the anchor's /api/annotations) as a client of the Annotation kind: the registry checks each
 * annotation's access (its dashboard's, or the organization's), finds them by the labels the kind derives (dashboard,
 * panel, time range, tags, creator) in the database, and deletes a dashboard's with it.
 */

const ANNOTATIONS = typedAnnotationKind;
const DASHBOARDS = anyKind(typedDashboardKind);
/** The anchor's page of annotations and of tags. */
const DEFAULT_LIMIT = 100;

const annotationNotFound = () => new StatusError(404, 'NotFound', 'Annotation not found');
const ctxOf = (req: Request, deps: AdapterDeps) => requestContext(req, deps.registry);
/** The caller's org, read without the caller's checks: to resolve what a request names. */
const orgCtx = (req: Request, deps: AdapterDeps): RequestContext => ({ ...ctxOf(req, deps), access: undefined });

/** What the handlers of one request share: its context, and the dashboards and writers it has resolved. */
class AnnotationsView {
  readonly ctx: RequestContext;
  private readonly dashboardIds = new Map<string, Promise<number>>();
  private readonly authors = new Map<string, Promise<AnnotationAuthor>>();

  constructor(
    private readonly req: Request,
    private readonly deps: AdapterDeps,
  ) {
    this.ctx = ctxOf(req, deps);
  }

  /** The annotation of the path, as the caller may read it: 400 for an id that is no number, else 404 (unreadable ones too). */
  async annotation(id = String(this.req.params.annotationId)): Promise<Resource<AnnotationSpec>> {
    if (!/^[1-9][0-9]{0,14}$/.test(id)) throw StatusError.badRequest('annotationId is invalid');
    try {
      return await this.deps.registry.get(this.ctx, ANNOTATIONS, id);
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 403)) throw annotationNotFound();
      throw err;
    }
  }

  /** The uid of the dashboard a request names by uid (kept) or by legacy id; undefined for one that does not exist. */
  async dashboardUid(uid: string | null | undefined, id: number | null | undefined): Promise<string | undefined> {
    if (uid) {
      const found = await this.deps.registry.get(orgCtx(this.req, this.deps), DASHBOARDS, uid).catch((err: unknown) => {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      });
      return found?.metadata.name;
    }
    return id ? (await findByInternalId(this.deps.registry, orgCtx(this.req, this.deps), DASHBOARDS, id))?.metadata.name : undefined;
  }

  private dashboardId(uid: string): Promise<number> {
    let id = this.dashboardIds.get(uid);
    if (!id) {
      id = this.deps.registry.get(orgCtx(this.req, this.deps), DASHBOARDS, uid).then(
        (d) => Number(d.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
        () => 0,
      );
      this.dashboardIds.set(uid, id);
    }
    return id;
  }

  /** A writer recorded as `user:<uid>` or `service-account:<uid>`, as the record names it. */
  private author(identity: string): Promise<AnnotationAuthor> {
    let found = this.authors.get(identity);
    if (!found) {
      const uid = identity.slice(identity.indexOf(':') + 1);
      const nobody = { userId: 0, login: '', email: '', avatarUrl: '' };
      found = identity.startsWith('user:')
        ? this.deps.users.userByUid(uid).then((u) => (u ? { userId: u.id, login: u.login, email: u.email, avatarUrl: avatarUrl(u.email) } : nobody))
        : identity.startsWith('service-account:')
          ? this.deps.accounts.byUid(this.req.user!.orgId, uid).then((sa) => (sa ? { userId: sa.id, login: sa.login, email: '', avatarUrl: '' } : nobody))
          : Promise.resolve(nobody);
      this.authors.set(identity, found);
    }
    return found;
  }

  async dto(obj: Resource<AnnotationSpec>) {
    const [dashboardId, author] = await Promise.all([obj.spec.dashboardUID ? this.dashboardId(obj.spec.dashboardUID) : 0, this.author(obj.metadata.annotations?.['svc.app/createdBy'] ?? '')]);
    return toAnnotationDTO(obj, dashboardId, author);
  }

  /** The creator label of a user id (the anchor's `userId`); undefined when no user has it. */
  async creatorLabel(userId: number): Promise<string | undefined> {
    const user = await this.deps.users.userById(userId);
    return user && labelKey(`user:${user.uid}`);
  }
}

/** The query's tags (`tags=a&tags=b`), as the anchor parses them. */
function queryTags(v: unknown) {
  return ([] as unknown[]).concat(v ?? []).filter((t): t is string => typeof t === 'string').map(parseTag).filter((t) => t !== undefined);
}

export async function getAnnotations(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = new AnnotationsView(req, deps);
  const q = req.query;
  const limit = positiveQueryInt(q.limit, DEFAULT_LIMIT);
  const selector: string[] = [];
  const dashboardUID = queryString(q.dashboardUID) ?? '';
  const dashboardId = queryInt(q.dashboardId);
  if (dashboardUID || dashboardId) {
    const uid = await v.dashboardUid(dashboardUID, dashboardId);
    if (!uid && dashboardUID) throw StatusError.badRequest('Invalid dashboard UID in annotation request');
    if (!uid) return void res.json([]);
    selector.push(`${ANNOTATION_LABELS.dashboard}=${labelKey(uid)}`);
  }
  const panelId = queryInt(q.panelId);
  if (panelId) selector.push(`${ANNOTATION_LABELS.panel}=${panelId}`);
  const userId = queryInt(q.userId);
  if (userId) {
    const creator = await v.creatorLabel(userId);
    if (!creator) return void res.json([]);
    selector.push(`${ANNOTATION_LABELS.creator}=${creator}`);
  }
  // There are no alert annotations here: an alert's are none.
  if (queryInt(q.alertId) || queryString(q.type) === 'alert') return void res.json([]);
  const from = queryInt(q.from);
  const to = queryInt(q.to);
  // The anchor's range: annotations overlapping [from, to], when both are given.
  if (from > 0 && to > 0) selector.push(`${ANNOTATION_LABELS.time}<${to + 1}`, `${ANNOTATION_LABELS.timeEnd}>${from - 1}`);
  const tags = queryTags(q.tags);
  const list = (extra: string[]) => deps.registry.list(v.ctx, ANNOTATIONS, { labelSelector: [...selector, ...extra].join(',') }).then((l) => l.items);
  // All tags: one selector; any of them: one list per tag, merged.
  const found = queryString(q.matchAny) === 'true' && tags.length > 1 ? (await Promise.all(tags.map((t) => list([tagFilterLabel(t)])))).flat() : await list(tags.map(tagFilterLabel));
  const unique = [...new Map(found.map((a) => [a.metadata.name, a])).values()];
  res.json(await Promise.all(unique.sort(byLatest).slice(0, limit).map((a) => v.dto(a))));
}

export async function getAnnotation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = new AnnotationsView(req, deps);
  res.json(await v.dto(await v.annotation()));
}

/** Creates the annotation and answers its id: `message` is the anchor's. */
async function create(req: Request, res: Response, deps: AdapterDeps, spec: AnnotationSpec, message: string): Promise<void> {
  const created = await deps.registry.create(ctxOf(req, deps), ANNOTATIONS, { metadata: {}, spec });
  res.json({ message, id: Number(created.metadata.name) });
}

export async function postAnnotation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = bind(req, postCommand);
  const v = new AnnotationsView(req, deps);
  let dashboardUID = '';
  if (cmd.dashboardUID || cmd.dashboardId) {
    dashboardUID = (await v.dashboardUid(cmd.dashboardUID, cmd.dashboardId)) ?? '';
    if (!dashboardUID) throw new StatusError(404, 'NotFound', 'Dashboard not found');
  }
  if (!cmd.text) throw StatusError.badRequest('Failed to save annotation');
  await create(req, res, deps, newAnnotationSpec(cmd, dashboardUID, Date.now()), 'Annotation added');
}

export async function postGraphiteAnnotation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = bind(req, graphiteCommand);
  const refused = () => StatusError.badRequest('Failed to save Graphite annotation');
  if (!cmd.what) throw refused();
  const tags = graphiteTags(cmd.tags);
  if (!tags) throw refused();
  const time = cmd.when ? cmd.when * 1000 : Date.now();
  if (!Number.isSafeInteger(time)) throw refused();
  await create(req, res, deps, { text: graphiteText(cmd.what, cmd.data), time, timeEnd: time, dashboardUID: '', panelId: 0, tags }, 'Graphite annotation added');
}

/** PUT and PATCH: the annotation read as the caller (404), changed as `change` says under the registry's checks. */
async function change(req: Request, res: Response, deps: AdapterDeps, next: (current: AnnotationSpec, cmd: UpdateCommand) => AnnotationSpec, message: string): Promise<void> {
  const cmd = bind(req, updateCommand);
  const v = new AnnotationsView(req, deps);
  const current = await v.annotation();
  await deps.registry.patch(v.ctx, ANNOTATIONS, current.metadata.name, (obj) => ({ ...obj, spec: next(obj.spec, cmd) }), {
    // The annotation read above, not another one since.
    check: async (_tx, stored) => {
      if (stored.metadata.uid !== current.metadata.uid) throw annotationNotFound();
    },
  });
  res.json({ message });
}

export const updateAnnotation = (req: Request, res: Response, deps: AdapterDeps) => change(req, res, deps, updatedSpec, 'Annotation updated');
export const patchAnnotation = (req: Request, res: Response, deps: AdapterDeps) => change(req, res, deps, patchedSpec, 'Annotation patched');

export async function deleteAnnotation(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const v = new AnnotationsView(req, deps);
  const current = await v.annotation();
  await deps.registry.delete(v.ctx, ANNOTATIONS, current.metadata.name, { preconditions: { uid: current.metadata.uid } });
  res.json({ message: 'Annotation deleted' });
}

export async function massDeleteAnnotations(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = bind(req, massDeleteCommand);
  const v = new AnnotationsView(req, deps);
  const dashboardUID = cmd.dashboardUID || cmd.dashboardId ? await v.dashboardUid(cmd.dashboardUID, cmd.dashboardId) : undefined;
  // An unknown uid names no dashboard (the anchor's id stays 0); an unknown id names one with no annotations.
  const dashboard = Boolean(dashboardUID || cmd.dashboardId);
  if (dashboard !== Boolean(cmd.panelId)) throw StatusError.badRequest('bad request data');
  if (cmd.annotationId) {
    const current = await v.annotation(String(cmd.annotationId));
    await deps.registry.delete(v.ctx, ANNOTATIONS, current.metadata.name, { preconditions: { uid: current.metadata.uid } });
  } else if (!dashboard || dashboardUID) {
    // A dashboard's panel, or (neither given) the organization's annotations of no panel, as the anchor deletes them.
    const on = dashboardUID ? `${ANNOTATION_LABELS.dashboard}=${labelKey(dashboardUID)}` : `!${ANNOTATION_LABELS.dashboard}`;
    await deps.registry.deleteCollection(v.ctx, ANNOTATIONS, { labelSelector: `${on},${ANNOTATION_LABELS.panel}=${cmd.panelId ?? 0}` });
  }
  res.json({ message: 'Annotations deleted' });
}

export async function getAnnotationTags(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const filter = queryString(req.query.tag) ?? '';
  const limit = positiveQueryInt(req.query.limit, DEFAULT_LIMIT);
  const tagged = await deps.registry.list(ctxOf(req, deps), ANNOTATIONS, { labelSelector: ANNOTATION_LABELS.tagged });
  res.json({ result: { tags: tagCounts(tagged.items.map((a) => a.spec.tags), filter, limit) } });
}
