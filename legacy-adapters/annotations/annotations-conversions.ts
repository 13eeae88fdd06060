import { z } from 'zod';
import type { AnnotationSpec } from '../../apis/annotation.svc.app/v1beta1/annotation';
import { Annotations, type Resource } from '../../pkg/meta';

/**
 * The anchor's annotation commands and records (pkg/api/dtos and pkg/services/annotations), turned into and out
 * of the Annotation kind: pure, so each rule is tested here once.
 */

const int = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const tags = z.array(z.string()).nullish();
const data = z.record(z.string(), z.unknown()).nullish();

/** POST /api/annotations (PostAnnotationsCmd). */
export const postCommand = z.object({
  dashboardUID: z.string().nullish(),
  dashboardId: int.nullish(),
  panelId: int.nullish(),
  time: int.nullish(),
  timeEnd: int.nullish(),
  text: z.string().nullish(),
  tags,
  data,
});

/** PUT and PATCH /api/annotations/:annotationId (UpdateAnnotationsCmd, PatchAnnotationsCmd: the same fields). */
export const updateCommand = z.object({ id: int.nullish(), time: int.nullish(), timeEnd: int.nullish(), text: z.string().nullish(), tags, data });

/** POST /api/annotations/graphite (PostGraphiteAnnotationsCmd): `tags` a list, or one string of tags separated by spaces. */
export const graphiteCommand = z.object({ what: z.string().nullish(), data: z.string().nullish(), when: int.nullish(), tags: z.unknown().optional() });

/** POST /api/annotations/mass-delete (MassDeleteAnnotationsCmd). */
export const massDeleteCommand = z.object({ annotationId: int.nullish(), dashboardId: int.nullish(), dashboardUID: z.string().nullish(), panelId: int.nullish() });

export type PostCommand = z.infer<typeof postCommand>;
export type UpdateCommand = z.infer<typeof updateCommand>;

/**
 * The spec of a new annotation: no time is now, no end is the start (a point), as the anchor's store sets them.
 *
 * @example newAnnotationSpec({ text: 'Deploy', tags: ['v1'] }, 'api-latency', 1700000000000).time // 1700000000000
 */
export function newAnnotationSpec(cmd: PostCommand, dashboardUID: string, now: number): AnnotationSpec {
  const time = cmd.time || now;
  return { text: cmd.text ?? '', time, timeEnd: cmd.timeEnd || time, dashboardUID, panelId: cmd.panelId ?? 0, tags: cmd.tags ?? [], ...(cmd.data ? { data: cmd.data } : {}) };
}

/**
 * What PUT makes of an annotation (the anchor's Update): text and tags replaced, times and data only when given.
 */
export function updatedSpec(current: AnnotationSpec, cmd: UpdateCommand): AnnotationSpec {
  return { ...current, text: cmd.text ?? '', tags: cmd.tags ?? [], time: cmd.time || current.time, timeEnd: cmd.timeEnd || current.timeEnd, ...(cmd.data ? { data: cmd.data } : {}) };
}

/** What PATCH makes of an annotation: only the fields given (a non-empty text, positive times, tags, data). */
export function patchedSpec(current: AnnotationSpec, cmd: UpdateCommand): AnnotationSpec {
  return {
    ...current,
    ...(cmd.text ? { text: cmd.text } : {}),
    ...(cmd.tags ? { tags: cmd.tags } : {}),
    time: cmd.time || current.time,
    timeEnd: cmd.timeEnd || current.timeEnd,
    ...(cmd.data ? { data: cmd.data } : {}),
  };
}

/**
 * A Graphite event's tags as the anchor reads them: a list of strings, or one string split at spaces; anything else
 * (a missing field included) is refused.
 *
 * @example graphiteTags('deploy prod') // ['deploy', 'prod']
 */
export function graphiteTags(tags: unknown): string[] | undefined {
  if (typeof tags === 'string') return tags === '' ? [] : tags.split(' ');
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) return tags as string[];
  return undefined;
}

/** The anchor's text of a Graphite event: `what`, then `data` on its own line. */
export const graphiteText = (what: string, data: string | null | undefined) => (data ? `${what}\n${data}` : what);

/** Who wrote an annotation, as the record shows its creator. */
export interface AnnotationAuthor {
  userId: number;
  login: string;
  email: string;
  avatarUrl: string;
}

/** The anchor's annotation record (ItemDTO). */
export interface AnnotationDTO {
  id: number;
  alertId: number;
  alertName: string;
  dashboardId: number;
  dashboardUID: string | null;
  panelId: number;
  userId: number;
  newState: string;
  prevState: string;
  created: number;
  updated: number;
  time: number;
  timeEnd: number;
  text: string;
  tags: string[];
  login: string;
  email: string;
  avatarUrl: string;
  data: Record<string, unknown>;
}

const millis = (ts: string | undefined) => (ts ? Date.parse(ts) : 0);

/**
 * The record of a stored annotation; `dashboardId` is its dashboard's legacy id (0 for an organization annotation).
 *
 * @example toAnnotationDTO(obj, 7, author).dashboardUID // 'api-latency'
 */
export function toAnnotationDTO(obj: Resource<AnnotationSpec>, dashboardId: number, author: AnnotationAuthor): AnnotationDTO {
  const created = millis(obj.metadata.creationTimestamp);
  return {
    id: Number(obj.metadata.name),
    alertId: 0,
    alertName: '',
    dashboardId,
    dashboardUID: obj.spec.dashboardUID || null,
    panelId: obj.spec.panelId,
    userId: author.userId,
    newState: '',
    prevState: '',
    created,
    updated: millis(obj.metadata.annotations?.[Annotations.updatedTimestamp]) || created,
    time: obj.spec.time,
    timeEnd: obj.spec.timeEnd,
    text: obj.spec.text,
    tags: obj.spec.tags,
    login: author.login,
    email: author.email,
    avatarUrl: author.avatarUrl,
    data: obj.spec.data ?? {},
  };
}

/** The anchor's order of annotations: latest end first, then latest start. */
export function byLatest(a: Resource<AnnotationSpec>, b: Resource<AnnotationSpec>): number {
  return b.spec.timeEnd - a.spec.timeEnd || b.spec.time - a.spec.time;
}

/**
 * The anchor's tag counts (GET /api/annotations/tags): each tag with how many annotations carry it, those whose key or
 * value contains `filter`, by key then value, at most `limit`.
 *
 * @example tagCounts([['a:1', 'b'], ['b']], '', 10) // [{ tag: 'a:1', count: 1 }, { tag: 'b', count: 2 }]
 */
export function tagCounts(tagLists: readonly (readonly string[])[], filter: string, limit: number): { tag: string; count: number }[] {
  const counts = new Map<string, { key: string; value: string; count: number }>();
  for (const list of tagLists) {
    for (const tag of new Set(list)) {
      const [key, value = ''] = tag.split(':');
      if (!key.includes(filter) && !value.includes(filter)) continue;
      const entry = counts.get(tag) ?? { key, value, count: 0 };
      entry.count++;
      counts.set(tag, entry);
    }
  }
  const order = (a: { key: string; value: string }, b: { key: string; value: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  return [...counts.entries()]
    .sort(([, a], [, b]) => order(a, b))
    .slice(0, limit)
    .map(([tag, { count }]) => ({ tag, count }));
}
