import { AsyncResource } from 'node:async_hooks';

/**
 * Group commit (issue 16; the anchor batches up to 25 writes under one version lock): the transactions of one group
 * (the writes of one type, which its counter's lock runs one at a time anyway) that arrive while one of them runs
 * ride in its database transaction, each in a savepoint, and commit together. Each stays atomic on its own: one that
 * fails is rolled back to its savepoint and answers its own error, its neighbours commit; none answers before the
 * commit that makes it durable, and versions still become visible in commit order.
 */

/** How many transactions share one commit at most. */
export const MAX_BATCH = 25;

/** The database side: one transaction, savepoints in it, and which errors mean "run it again". */
export interface BatchDatabase<Tx> {
  /** Runs `body` in a new transaction, committed when it resolves, rolled back when it throws. */
  transaction(body: (tx: Tx) => Promise<void>): Promise<void>;
  savepoint(tx: Tx): Promise<void>;
  release(tx: Tx): Promise<void>;
  /** Undoes what ran since the savepoint (the locks it took included). */
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

export class CommitGroups<Tx> {
  /** Per group, the transactions waiting for the batch in flight to take them. */
  private readonly waiting = new Map<string, Member<Tx>[]>();

  constructor(private readonly db: BatchDatabase<Tx>) {}

  /** Runs `fn` in a transaction of `group`, alone or with others; resolves after its commit. */
  run<T>(group: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // It runs in its caller's async context, whichever member's transaction it rides in.
      const member: Member<Tx> = { fn: AsyncResource.bind(fn), resolve: resolve as (v: unknown) => void, reject, attempts: 1 };
      const queue = this.waiting.get(group);
      if (queue) return void queue.push(member);
      this.waiting.set(group, [member]);
      void this.drain(group);
    });
  }

  private async drain(group: string): Promise<void> {
    const queue = this.waiting.get(group)!;
    try {
      while (queue.length) await this.batch(queue);
    } finally {
      this.waiting.delete(group);
    }
  }

  /** One database transaction: the first waiting member as the transaction itself, then others in savepoints. */
  private async batch(queue: Member<Tx>[]): Promise<void> {
    const ran: Member<Tx>[] = [];
    // The member running when the transaction failed, if any: it failed with it.
    let current: Member<Tx> | undefined;
    try {
      await this.db.transaction(async (tx) => {
        const first = (current = queue.shift()!);
        first.result = await first.fn(tx);
        ran.push(first);
        current = undefined;
        while (queue.length && ran.length < MAX_BATCH) {
          const member = (current = queue.shift()!);
          await this.db.savepoint(tx);
          try {
            member.result = await member.fn(tx);
          } catch (err) {
            // Its own failure, undone alone; its neighbours go on.
            await this.db.rollbackTo(tx);
            current = undefined;
            this.fail(queue, member, err);
            continue;
          }
          await this.db.release(tx);
          ran.push(member);
          current = undefined;
        }
      });
    } catch (err) {
      // The first member's own failure, or the transaction's (a savepoint, the commit, the connection): nothing of
      // this transaction committed.
      for (const m of current ? [...ran, current] : ran) this.fail(queue, m, err);
      return;
    }
    for (const m of ran) m.resolve(m.result);
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
