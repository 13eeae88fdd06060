import { Annotations, type KindStrategy, labelKey, type Resource } from '../../../../pkg/meta';
import type { AnnotationSpec } from './annotation-schema';

/**
 * Labels the registry's selectors find annotations by, derived from the spec (and the creator) on every write: a
 * client's values for them are replaced. Values that are no valid label values (uids, tags, identities) are hashed
 * with `labelKey`.
 */
export const ANNOTATION_LABELS = {
  /** `labelKey(dashboardUID)`; absent on organization annotations. */
  dashboard: 'annotation.svc.app/dashboard',
  panel: 'annotation.svc.app/panel',
  /** `time` and `timeEnd` in milliseconds: a time range is a `<` and a `>` requirement. */
  time: 'annotation.svc.app/time',
  timeEnd: 'annotation.svc.app/time-end',
  /** `labelKey` of the creator's identity (`user:<uid>`), the anchor's `userId`. */
  creator: 'annotation.svc.app/creator',
  /** Present when the annotation has tags. */
  tagged: 'annotation.svc.app/tagged',
} as const;

const TAG_KEY_PREFIX = 'tag-key.annotation.svc.app/';
const TAG_PREFIX = 'tag.annotation.svc.app/';

/**
 * A tag as the anchor parses it (`key` or `key:value`, each trimmed), or undefined for one with an empty key.
 *
 * @example parseTag(' env : prod ') // { key: 'env', value: 'prod' }
 */
export function parseTag(tag: string): { key: string; value: string } | undefined {
  const [key, value = ''] = tag.split(':').map((p) => p.trim());
  return key ? { key, value } : undefined;
}

/** The tag as stored and shown: `key`, or `key:value`. */
export const joinTag = (t: { key: string; value: string }) => (t.value ? `${t.key}:${t.value}` : t.key);

/**
 * The label a tag filter requires (it exists): a bare `key` matches every tag of that key, `key:value` that pair.
 *
 * @example tagFilterLabel('env') // 'tag-key.annotation.svc.app/<hash of env>'
 */
export function tagFilterLabel(tag: { key: string; value: string }): string {
  return tag.value ? `${TAG_PREFIX}${labelKey(joinTag(tag))}` : `${TAG_KEY_PREFIX}${labelKey(tag.key)}`;
}

function derivedLabels(obj: Resource<AnnotationSpec>): Record<string, string> {
  const { spec } = obj;
  const tags = spec.tags.map(parseTag).filter((t) => t !== undefined);
  return {
    ...(spec.dashboardUID ? { [ANNOTATION_LABELS.dashboard]: labelKey(spec.dashboardUID) } : {}),
    [ANNOTATION_LABELS.panel]: String(spec.panelId),
    [ANNOTATION_LABELS.time]: String(spec.time),
    [ANNOTATION_LABELS.timeEnd]: String(spec.timeEnd),
    ...(tags.length ? { [ANNOTATION_LABELS.tagged]: 'true' } : {}),
    ...Object.fromEntries(tags.flatMap((t) => [[`${TAG_KEY_PREFIX}${labelKey(t.key)}`, 'true'], [`${TAG_PREFIX}${labelKey(joinTag(t))}`, 'true']])),
  };
}

const derived = (key: string) => key.startsWith(TAG_PREFIX) || key.startsWith(TAG_KEY_PREFIX) || (Object.values(ANNOTATION_LABELS) as string[]).includes(key);

/**
 * Tags are kept as the anchor keeps them (trimmed `key` or `key:value`, empty keys dropped); a region given end
 * first is turned around, as the anchor does; the dashboard and panel stay those it was made on; the labels follow.
 */
export const annotationStrategy: KindStrategy<AnnotationSpec> = {
  prepareForCreate(obj) {
    const creator = obj.metadata.annotations?.[Annotations.createdBy];
    obj.metadata.labels = { ...obj.metadata.labels, ...(creator ? { [ANNOTATION_LABELS.creator]: labelKey(creator) } : {}) };
  },
  prepareForUpdate(obj, old) {
    const creator = old.metadata.labels?.[ANNOTATION_LABELS.creator];
    obj.metadata.labels = { ...obj.metadata.labels, ...(creator ? { [ANNOTATION_LABELS.creator]: creator } : {}) };
  },
  validate(obj, old) {
    if (!old) return [];
    const immutable = (['dashboardUID', 'panelId'] as const).filter((f) => obj.spec[f] !== old.spec[f]);
    return immutable.map((f) => ({ field: `spec.${f}`, reason: 'FieldValueInvalid', message: 'field is immutable' }));
  },
  canonicalize(obj) {
    obj.spec.tags = obj.spec.tags.map(parseTag).filter((t) => t !== undefined).map(joinTag);
    if (obj.spec.timeEnd < obj.spec.time) [obj.spec.time, obj.spec.timeEnd] = [obj.spec.timeEnd, obj.spec.time];
    const creator = obj.metadata.labels?.[ANNOTATION_LABELS.creator];
    const kept = Object.entries(obj.metadata.labels ?? {}).filter(([k]) => !derived(k));
    obj.metadata.labels = { ...Object.fromEntries(kept), ...(creator ? { [ANNOTATION_LABELS.creator]: creator } : {}), ...derivedLabels(obj) };
  },
};
