import { createHash } from 'node:crypto';
import { type StarredItem, starsKind, type StarsSpec } from '../../apis/collections.svc.app/v1alpha1/stars';
import { notFoundAsUndefined } from '../errors';
import { anyKind, type KindRegistration, type Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { nameProblem } from '../registry/names';

/** Whose stars: an identity (`user:<uid>`, `service-account:<uid>`) in the organization it acts in. */
export interface StarOwner {
  identity: string;
  orgId: number;
}

/**
 * The name of an owner's stars object: the identity with '-' for ':' (`user-ab12cd`), or a digest when that is not
 * a valid name.
 *
 * @example starsName('user:ab12cd'); // 'user-ab12cd'
 */
export function starsName(identity: string): string {
  const plain = identity.replace(':', '-');
  return nameProblem(plain) ? `h-${createHash('sha256').update(identity).digest('hex').slice(0, 38)}` : plain;
}

const sameObject = (kind: KindRegistration, name: string) => (i: StarredItem) =>
  i.group === kind.group && i.resource === kind.plural && i.name === name;

/**
 * Stars, per user per organization, stored as one `Stars` object per user (apis/collections.svc.app). A star
 * remembers the starred object's `metadata.uid`: once the object is deleted its star no longer counts, even if
 * another object takes the same name.
 *
 * @example
 *   const stars = starsOf(registry);
 *   await stars.star(req.user!, dashboardKind, dashboard);
 *   meta.isStarred = await stars.isStarred(req.user!, dashboardKind, dashboard);
 */
export class Stars {
  private readonly registry: Registry;

  /** `objects`: the registry of the starred objects; stars are kept beside them. */
  constructor(private readonly objects: Registry) {
    this.registry = objects.companion([anyKind(starsKind)]);
  }

  private ctx(owner: StarOwner): RequestContext {
    return { requester: { identity: owner.identity }, namespace: this.registry.namespaces.of(owner.orgId), fieldManager: 'svc-stars' };
  }

  /** Everything the owner starred, deleted objects included. */
  private async items(owner: StarOwner): Promise<StarredItem[]> {
    const stored = await this.registry.get(this.ctx(owner), starsKind, starsName(owner.identity)).catch(notFoundAsUndefined);
    return stored?.spec.items ?? [];
  }

  /**
   * Whether the owner starred this object (as stored: its `metadata.uid` must be the starred one).
   *
   * @example await starsOf(registry).isStarred(req.user!, dashboardKind, dashboard); // true
   */
  async isStarred(owner: StarOwner, kind: KindRegistration, obj: Resource): Promise<boolean> {
    return (await this.items(owner)).some((i) => sameObject(kind, obj.metadata.name)(i) && i.uid === obj.metadata.uid);
  }

  /**
   * The names of the objects of `kind` the owner starred that still exist, in the order they were starred.
   *
   * @example await starsOf(registry).starredNames(req.user!, dashboardKind); // ['api-latency', 'errors']
   */
  async starredNames(owner: StarOwner, kind: KindRegistration): Promise<string[]> {
    const starred = (await this.items(owner)).filter((i) => i.group === kind.group && i.resource === kind.plural);
    if (starred.length === 0) return [];
    const live = await this.objects.liveUids(kind, this.registry.namespaces.of(owner.orgId), starred.map((i) => i.name));
    return starred.filter((i) => live.get(i.name) === i.uid).map((i) => i.name);
  }

  /** Stars `obj` (a stored object of `kind`) for the owner; starring it again changes nothing. */
  async star(owner: StarOwner, kind: KindRegistration, obj: Resource): Promise<void> {
    const item: StarredItem = { group: kind.group, resource: kind.plural, name: obj.metadata.name, uid: obj.metadata.uid };
    const name = starsName(owner.identity);
    await this.registry.upsert(this.ctx(owner), starsKind, name, (current) =>
      current ? withItems(current, (items) => [...items.filter((i) => !sameObject(kind, item.name)(i)), item]) : { metadata: { name }, spec: { items: [item] } },
    );
  }

  /** Removes the owner's star of the object of `kind` named `name`, if any. */
  async unstar(owner: StarOwner, kind: KindRegistration, name: string): Promise<void> {
    await this.registry
      .patch(this.ctx(owner), starsKind, starsName(owner.identity), (current) => withItems(current, (items) => items.filter((i) => !sameObject(kind, name)(i))))
      .catch(notFoundAsUndefined);
  }
}

const byRegistry = new WeakMap<Registry, Stars>();

/**
 * The stars kept beside `registry`'s objects, in its storage and under its namespaces (one instance per registry):
 * what adapters call to answer `isStarred`.
 *
 * @example const starred = await starsOf(registry).isStarred(req.user!, dashboardKind, dashboard);
 */
export function starsOf(registry: Registry): Stars {
  let stars = byRegistry.get(registry);
  if (!stars) {
    stars = new Stars(registry);
    byRegistry.set(registry, stars);
  }
  return stars;
}

function withItems(current: Resource<StarsSpec>, change: (items: StarredItem[]) => StarredItem[]): Resource<StarsSpec> {
  return { ...current, spec: { ...current.spec, items: change(current.spec.items) } };
}

