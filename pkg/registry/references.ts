import { StatusError } from '../errors';
import type { KindReference, KindRegistration, Resource } from '../meta';
import type { ReferenceTarget, StorageTx } from '../../storage';
import { KindAccess, type WriteGate } from './access';
import type { RequestContext } from './context';
import type { Removed } from './folder-tree';

/**
 * References between objects (KindRegistration.references): what a write may name, what storage keeps of them, and
 * what a delete may not leave behind. The rules live here, once, for every kind that declares them.
 */

/** The names a reference holds in an object, each once. */
function namesOf(ref: KindReference, obj: Resource): string[] {
  const held = ref.name(obj.spec);
  const names = held === undefined ? [] : typeof held === 'string' ? [held] : [...held];
  return [...new Set(names)].filter((n) => n !== '');
}

/**
 * What storage keeps of an object's references (those declaring `inUse`), or undefined when its kind keeps none.
 *
 * @example referenceTargetsOf(dashboardKind, dashboard); // [{ group: 'dashboard.svc.app', resource: 'librarypanels', name: 'cpu' }]
 */
export function referenceTargetsOf(kind: KindRegistration, obj: Resource): ReferenceTarget[] | undefined {
  const kept = (kind.references ?? []).filter((r) => r.inUse);
  if (!kept.length) return undefined;
  return kept.flatMap((r) => namesOf(r, obj).map((name) => ({ group: r.group, resource: r.resource, name })));
}

const notFound = (ref: KindReference, name: string) =>
  ref.missing?.(name) ??
  new StatusError(400, 'BadRequest', `${ref.resource}.${ref.group} "${name}" not found`, {
    causes: [{ reason: 'FieldValueNotFound', field: `spec.${ref.field}`, message: `Not found: "${name}"` }],
  });

/**
 * In the write's transaction: every object `obj` names exists, and stays (share-locked, so a concurrent delete waits
 * for this write and then sees its references), and, for references with `requireRead`, the caller may read it when
 * the write is gated (decided by the gate, all at once).
 *
 * @throws the reference's `missing` (default 400 naming the field) for the first one missing or unreadable.
 */
export async function checkReferences(tx: StorageTx, ctx: RequestContext, kinds: readonly KindRegistration[], kind: KindRegistration, obj: Resource, gate: WriteGate | undefined): Promise<void> {
  for (const ref of kind.references ?? []) {
    const found: Resource[] = [];
    for (const name of namesOf(ref, obj)) {
      const stored = await tx.get({ group: ref.group, resource: ref.resource, namespace: obj.metadata.namespace, name }, { lock: 'share' });
      if (!stored) throw notFound(ref, name);
      found.push(stored.value as unknown as Resource);
    }
    const target = kinds.find((k) => k.group === ref.group && k.plural === ref.resource);
    const access = ref.requireRead && gate && target && found.length ? KindAccess.of(ctx, target) : undefined;
    if (!gate || !access) continue;
    const readable = gate.mayAll(access.action('read'), found.map((o) => access.target(o)));
    const denied = found.find((_, i) => !readable[i]);
    if (denied) throw notFound(ref, denied.metadata.name);
  }
}

/**
 * In a delete's transaction, after its removals (a folder's contents, cascades): refuses when one of the removed
 * objects is still named by a kept reference (`inUse`) of an object that stays. References of objects removed with
 * it are gone already, so a folder holding both a dashboard and the library panel it uses is deleted. `folder`: the
 * folder whose delete removed them.
 *
 * @throws the reference's `inUse` for the first object still referenced.
 */
export async function refuseReferenced(tx: StorageTx, kinds: readonly KindRegistration[], removed: readonly Removed[], folder?: string): Promise<void> {
  for (const target of new Set(removed.map((r) => r.kind))) {
    const declarations = kinds.flatMap((from) =>
      (from.references ?? []).filter((r) => r.inUse && r.group === target.group && r.resource === target.plural).map((ref) => ({ from, ref })),
    );
    if (!declarations.length) continue;
    const objects = removed.filter((r) => r.kind === target).map((r) => r.object.metadata);
    for (const namespace of new Set(objects.map((o) => o.namespace))) {
      const names = objects.filter((o) => o.namespace === namespace).map((o) => o.name);
      const [first] = await tx.referrers({ group: target.group, resource: target.plural, namespace, names });
      if (!first) continue;
      const by = declarations.find((d) => d.from.group === first.from.group && d.from.plural === first.from.resource) ?? declarations[0];
      throw by.ref.inUse!(first.to.name, folder);
    }
  }
}
