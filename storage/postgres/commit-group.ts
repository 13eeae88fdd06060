import { AsyncResource } from 'node:async_hooks';

/**
 * Group commit (issue 16; the anchor batches up to 25 writes under one version lock): the transactions of one group
 * (the writes of one type, which its counter's lock runs one at a time anyway) that arrive while one of them runs
 * ride in its database transaction and commit together. Each stays atomic on its own: one that fails answers its own
 * error and leaves nothing, its neighbours commit; none answers before the commit that makes it durable, and versions
 * still become visible in commit order.
 *
 * A batch first runs optimistically, its members one after another with no savepoint between them (a savepoint is
 * a round trip under the lock, paid by every waiting writer). When a member fails there after others ran, the
 * transaction is rolled back and all of them, the failed one last, wait again at the head of the queue with their
 * work undone (as after a deadlock); the batch after such a failure runs each member in a savepoint, so a failing
 * member is undone alone and no member runs more than twice because of others. A member's own failure is answered
 * only once its transaction has ended: what it saw of its neighbours' writes is true only once they commit.
 *
 * An optimistic batch also defers its members' plain creates: each is written by the transaction's next statement
 * or at its end, those of every member together in one statement, so the members run back to back without a round
 * trip each under the lock. A deferred create that does not apply (its name taken) fails that statement, which no
 * member's own code could catch where it created (a companion object that replaces one left behind does): the
 * transaction is rolled back and its members run again, carefully, where every write is made when it is asked for.
 */

/** How many transactions share one commit at most. */
export const MAX_BATCH = 25;

/** The database side: one transaction, savepoints in it, and which errors mean "run it again". */
export interface BatchDatabase<Tx, Session = unknown> {
  /**
   * Runs `body` in a new transaction, committed when it resolves, rolled back when it throws. With `deferred`, the
   * transaction may defer writes to its end (see {@link deferredFailed}); with `session`, it runs there.
   */
  transaction(body: (tx: Tx) => Promise<void>, opts: { deferred: boolean; session?: Session }): Promise<void>;
  /**
   * Optional: runs `fn` with a session (a connection) held for it, which the batches that follow one another
   * share: the next batch starts at once, without taking a connection from the pool and handing it back.
   */
  session?<T>(fn: (session: Session) => Promise<T>): Promise<T>;
  /** A deferred write did not apply: nothing of the transaction committed, and its members may run again without deferring. */
  deferredFailed(err: unknown): boolean;
  /** Starts a savepoint; it is never released (one round trip less per write), so savepoints nest. */
  savepoint(tx: Tx): Promise<void>;
  /** Undoes what ran since the latest savepoint (the locks it took included). */
  rollbackTo(tx: Tx): Promise<void>;
  /** A deadlock or serialization failure: the work had no effect and may run again. */
  retryable(err: unknown): boolean;
  maxAttempts: number;
}

interface Member<Tx> {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  attempts: number;
  result?: unknown;
}

export class CommitGroups<Tx, Session = unknown> {
  /** Per group, the transactions waiting for the batch in flight to take them. */
  private readonly waiting = new Map<string, Member<Tx>[]>();

  constructor(private readonly db: BatchDatabase<Tx, Session>) {}

  /** Runs `fn` in a transaction of `group`, alone or with others; resolves after its commit. */
  run<T>(group: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // It runs in its caller's async context, whichever member's transaction it rides in.
      // (An AsyncResource of its own: AsyncResource.bind also defines a deprecated getter on every function it binds.)
      const context = new AsyncResource('svc.commit-group');
      const bound = (tx: Tx) => context.runInAsyncScope(fn, undefined, tx);
      const member: Member<Tx> = { fn: bound, resolve: resolve as (v: unknown) => void, reject, attempts: 1 };
      const queue = this.waiting.get(group);
      if (queue) return void queue.push(member);
      this.waiting.set(group, [member]);
      void this.drain(group);
    });
  }

  private async drain(group: string): Promise<void> {
    const queue = this.waiting.get(group)!;
    try {
      let careful = false;
      while (queue.length) {
        if (!this.db.session) {
          careful = (await this.batch(queue, careful)).careful;
          continue;
        }
        // The batches that follow one another share a session while none fails: a failure may be its connection's,
        // so the next batch takes a session of its own.
        try {
          careful = await this.db.session(async (s: Session): Promise<boolean> => {
            let next = careful;
            while (queue.length) {
              const ended = await this.batch(queue, next, s);
              next = ended.careful;
              if (!ended.ok) break;
            }
            return next;
          });
        } catch (err) {
          // No session (the pool closed, the database gone): the first waiting member answers the error, as when a
          // transaction cannot begin.
          const first = queue.shift();
          if (first) this.fail(queue, first, err);
          careful = false;
        }
      }
    } finally {
      this.waiting.delete(group);
    }
  }

  /**
   * One database transaction: the first waiting member, then others, each in a savepoint when `careful`. `careful`
   * in the answer: an optimistic batch failed and the next is to be careful; `ok`: the transaction committed.
   */
  private async batch(queue: Member<Tx>[], careful: boolean, session?: Session): Promise<{ careful: boolean; ok: boolean }> {
    const ran: Member<Tx>[] = [];
    // Members that failed on their own in this transaction: answered once it has ended, since what they saw of
    // their neighbours' writes is only true once those commit (a create that found its name taken by one of them).
    const failed: [Member<Tx>, unknown][] = [];
    // The member running when the transaction failed, if any: it failed with it.
    let current: Member<Tx> | undefined;
    // Whether the transaction began: one that cannot (the pool closed, the database gone) took no member yet.
    let began = false;
    try {
      await this.db.transaction(async (tx) => {
        began = true;
        const first = (current = queue.shift()!);
        first.result = await first.fn(tx);
        ran.push(first);
        current = undefined;
        while (queue.length && ran.length < MAX_BATCH) {
          const member = (current = queue.shift()!);
          if (!careful) {
            member.result = await member.fn(tx);
            ran.push(member);
            current = undefined;
            continue;
          }
          await this.db.savepoint(tx);
          try {
            member.result = await member.fn(tx);
          } catch (err) {
            // Its own failure, undone alone; its neighbours go on.
            await this.db.rollbackTo(tx);
            current = undefined;
            failed.push([member, err]);
            continue;
          }
          ran.push(member);
          current = undefined;
        }
      }, { deferred: !careful, ...(session === undefined ? {} : { session }) });
    } catch (err) {
      // Nothing of this transaction committed.
      if (!began) {
        // No transaction: the first waiting member answers the error (or waits again while it may retry), so a
        // database that refuses every transaction ends the queue instead of spinning on it.
        this.fail(queue, queue.shift()!, err);
        return { careful: false, ok: false };
      }
      if (!careful && ((current && ran.length) || this.db.deferredFailed(err))) {
        // A member of an optimistic batch failed after others ran: its failure may be theirs (a name one of them
        // took), so it runs again too, after them, each with a savepoint. So do all of them when a deferred write
        // did not apply: run again, each write is made when asked for, and the member that made it sees its failure.
        queue.unshift(...ran, ...(current ? [current] : []));
        return { careful: true, ok: false };
      }
      // The first member's own failure, or the transaction's (a savepoint, the commit, the connection).
      for (const m of current ? [...ran, current] : ran) this.fail(queue, m, err);
      for (const [m, own] of failed) this.fail(queue, m, own);
      return { careful: false, ok: false };
    }
    for (const m of ran) m.resolve(m.result);
    for (const [m, own] of failed) this.fail(queue, m, own);
    return { careful: false, ok: true };
  }

  private fail(queue: Member<Tx>[], member: Member<Tx>, err: unknown): void {
    if (this.db.retryable(err) && member.attempts < this.db.maxAttempts) {
      member.attempts++;
      queue.unshift(member);
    } else {
      member.reject(err);
    }
  }
}
