import { StatusError } from '../errors';
import type { KindRegistration, Resource } from '../meta';
import type { GroupResource, StorageTx } from '../../storage';
import type { AccessCheck, AccessObject, AccessTarget, RequestContext } from './context';
import { folderOf } from './folder-tree';

/**
 * Authorization of one kind's objects, as every kind with `access` gets it (kube's authorizer in front of the
 * generic store): `<resource>:read|write|delete` on `<resource>:uid:<name>` (with the object's folder, for
 * inheritance), `<resource>:create` on the folder a new object goes to (`folders:uid:<folder or general>`; '' for
 * kinds without folders). Only requests carrying `ctx.access` are checked.
 */

export type Verb = 'read' | 'write' | 'create' | 'delete';

/** The root's scope, as the anchor names it. */
const GENERAL = 'general';

/**
 * Checks are asynchronous and may read storage (the folder tree); transactions must not wait on them (the
 * embedded database has one connection). So a transaction asks {@link WriteGate.require}, which answers from
 * decisions made before it started; a missing one rolls the transaction back with this, the gate decides it
 * outside, and the write runs again.
 */
class NeedsCheck extends Error {
  constructor(readonly checks: { action: string; target: AccessTarget }[]) {
    super('access checks needed');
  }
}

/** How many times a write is retried for checks it did not foresee (a move by patch, a racing change). */
const MAX_ROUNDS = 4;

export class KindAccess {
  private constructor(
    private readonly access: AccessCheck,
    private readonly kind: KindRegistration,
    private readonly resource: string,
    private readonly user: string,
  ) {}

  /**
   * The checks of a request on a kind, or undefined when none apply (a kind without `access`, the server's own
   * writes).
   *
   * @example
   *   const gate = KindAccess.of(ctx, kind);
   *   if (gate) await gate.require('read', gate.target(obj), name);
   */
  static of(ctx: RequestContext, kind: KindRegistration): KindAccess | undefined {
    if (!ctx.access || !kind.access) return undefined;
    return new KindAccess(ctx.access, kind, kind.access.resource, ctx.requester.login ?? ctx.requester.identity);
  }

  action(verb: Verb): string {
    return this.kind.access?.actions?.[verb] ?? `${this.resource}:${verb}`;
  }

  /**
   * What read, write and delete are checked on: the object's scope (the kind's `access.scope`, else
   * `<resource>:uid:<name>`), with its folder when the kind has folders.
   */
  target(obj: Resource): AccessTarget {
    const own = this.kind.access?.scope;
    if (own) return own(obj.spec);
    const scope = `${this.resource}:uid:${obj.metadata.name}`;
    return this.kind.inFolder ? { scope, folder: folderOf(obj) } : scope;
  }

  /**
   * What create is checked on: the new object's own scope when the kind declares one, else the folder the object
   * goes to; '' for kinds without folders.
   */
  createTarget(folder: string, spec: unknown): AccessTarget {
    const own = this.kind.access?.scope;
    if (own) return own(spec);
    return this.kind.inFolder ? `folders:uid:${folder || GENERAL}` : '';
  }

  /** The 403 of a missing action: a Forbidden Status under /apis, the anchor's access-denied body under /api. */
  denied(action: string, name: string): StatusError {
    return StatusError.accessDenied({ group: this.kind.group, resource: this.kind.plural }, name, action, this.user);
  }

  /** @throws StatusError 403 unless the caller may. */
  async require(verb: Verb, target: AccessTarget, name: string): Promise<void> {
    const action = this.action(verb);
    if (!(await this.access.can(action, target))) throw this.denied(action, name);
  }

  /** The objects the caller may read, in their order. */
  readable(objects: readonly Resource[]): Promise<Resource[]> {
    return this.access.filter(this.action('read'), objects, (o) => this.target(o));
  }

  /** The targets the caller may do `action` on (the same target objects). */
  filterTargets(action: string, targets: readonly AccessTarget[]): Promise<AccessTarget[]> {
    return this.access.filter(action, targets, (t) => t);
  }

  /** Whether the caller may read the object (watch events). */
  canRead(obj: Resource): Promise<boolean> {
    return this.access.can(this.action('read'), this.target(obj));
  }

  /**
   * Whether the caller could read a deleted object (its final state, as its DELETED event carries it) just before it
   * was deleted, when its own permissions, and those of folders deleted with it, may be gone already.
   */
  couldReadDeleted(obj: Resource): Promise<boolean> {
    // An object checked on its own scope is read through what it belongs to, which its delete does not take along.
    if (!this.access.couldBeforeDeletion || this.kind.access?.scope) return this.canRead(obj);
    return this.access.couldBeforeDeletion(this.action('read'), this.describe(obj));
  }

  /** What the access hooks are told about an object. */
  describe(obj: Resource): AccessObject {
    return { resource: this.resource, namespace: obj.metadata.namespace, name: obj.metadata.name, folder: this.kind.inFolder ? folderOf(obj) : '', uid: obj.metadata.uid };
  }

  /** The types {@link created} writes (see AccessCheck.createdTypes), locked before the object is written. */
  createdTypes(): readonly GroupResource[] {
    return this.access.createdTypes?.(this.resource) ?? [];
  }

  created(obj: Resource, tx: StorageTx): Promise<void> {
    return this.access.created?.(this.describe(obj), tx) ?? Promise.resolve();
  }

  deleted(objects: readonly AccessObject[], tx: StorageTx): Promise<void> {
    if (!objects.length) return Promise.resolve();
    return this.access.deleted?.(objects, tx) ?? Promise.resolve();
  }

  /** A gate for one write: see {@link WriteGate}. */
  gate(): WriteGate {
    return new WriteGate(this);
  }
}

const keyOf = (action: string, target: AccessTarget) =>
  typeof target === 'string' ? `${action}\u0000${target}` : `${action}\u0000${target.scope}\u0000${target.folder ?? ''}`;

/**
 * The access decisions of one write, made outside its transaction (see NeedsCheck).
 *
 * @example
 *   const gate = access.gate();
 *   await gate.decide('write', access.target(current));
 *   await gate.run(() => storage.transact(async (tx) => { gate.require('write', access.target(stored), name); ... }));
 */
export class WriteGate {
  private readonly decided = new Map<string, boolean>();

  constructor(readonly access: KindAccess) {}

  /** Decides checks ahead of the transaction (what the caller can foresee). */
  async decide(checks: readonly { verb: Verb; target: AccessTarget }[]): Promise<void> {
    await this.resolve(checks.map((c) => ({ action: this.access.action(c.verb), target: c.target })));
  }

  /**
   * Inside the transaction: passes when allowed, throws 403 when denied, and rolls the transaction back to decide
   * when not yet decided.
   */
  require(verb: Verb, target: AccessTarget, name: string): void {
    const action = this.access.action(verb);
    const allowed = this.decided.get(keyOf(action, target));
    if (allowed === undefined) throw new NeedsCheck([{ action, target }]);
    if (!allowed) throw this.access.denied(action, name);
  }

  /** Inside the transaction, for many objects at once: which may (undecided ones roll the transaction back). */
  allows(verb: Verb, targets: readonly AccessTarget[]): boolean[] {
    return this.mayAll(this.access.action(verb), targets);
  }

  /**
   * Inside the transaction: whether the caller may do `action` (of any kind: a library panel's read while a dashboard
   * is written) on each target; undecided ones roll the transaction back, all at once.
   */
  mayAll(action: string, targets: readonly AccessTarget[]): boolean[] {
    const missing = targets.filter((t) => !this.decided.has(keyOf(action, t)));
    if (missing.length) throw new NeedsCheck(missing.map((target) => ({ action, target })));
    return targets.map((t) => this.decided.get(keyOf(action, t))!);
  }

  /** Runs the write, deciding what it asks for between attempts. */
  async run<T>(write: () => Promise<T>): Promise<T> {
    for (let round = 1; ; round++) {
      try {
        return await write();
      } catch (err) {
        if (!(err instanceof NeedsCheck) || round >= MAX_ROUNDS) throw err instanceof NeedsCheck ? StatusError.conflict({ group: '', resource: 'access' }, '', 'the object kept changing while its access was checked; try again') : err;
        await this.resolve(err.checks);
      }
    }
  }

  private async resolve(checks: readonly { action: string; target: AccessTarget }[]): Promise<void> {
    const byAction = new Map<string, AccessTarget[]>();
    for (const c of checks) {
      if (this.decided.has(keyOf(c.action, c.target))) continue;
      byAction.set(c.action, [...(byAction.get(c.action) ?? []), c.target]);
    }
    for (const [action, targets] of byAction) {
      const allowed = new Set(await this.access.filterTargets(action, targets));
      for (const t of targets) this.decided.set(keyOf(action, t), allowed.has(t));
    }
  }
}
