import { type BatchDatabase, CommitGroups } from './commit-group';

/** A database whose transactions fail before their body runs (the pool closed under it). */
const closed = (retryable = false): BatchDatabase<object> & { begun: number } => {
  const db = {
    begun: 0,
    async transaction() {
      db.begun++;
      throw new Error('Cannot use a pool after calling end on the pool');
    },
    async savepoint() {},
    async rollbackTo() {},
    retryable: () => retryable,
    deferredFailed: () => false,
    maxAttempts: 3,
  };
  return db;
};

/** The refusal of a deferred write at the end of a transaction (a create whose name was taken). */
class Refused extends Error {}

/**
 * A database of one value per key: a transaction's writes are kept aside and applied at its commit; with deferred
 * writes, a taken key is found only at the end (Refused), else when written (the member's own error).
 */
function keyed() {
  const committed = new Map<string, number>();
  const log: string[] = [];
  type Tx = { writes: Map<string, number>; deferred: boolean; pending: [string, number][] };
  const db: BatchDatabase<Tx> = {
    async transaction(body, { deferred }) {
      const tx: Tx = { writes: new Map(), deferred, pending: [] };
      log.push(deferred ? 'begin deferred' : 'begin');
      await body(tx);
      for (const [k, v] of tx.pending) {
        if (committed.has(k) || tx.writes.has(k)) throw new Refused(k);
        tx.writes.set(k, v);
      }
      for (const [k, v] of tx.writes) committed.set(k, v);
      log.push('commit');
    },
    async savepoint() {
      log.push('savepoint');
    },
    async rollbackTo() {
      log.push('rollback to');
    },
    retryable: () => false,
    deferredFailed: (err) => err instanceof Refused,
    maxAttempts: 3,
  };
  const create = (tx: Tx, k: string, v: number) => {
    if (tx.deferred) return void tx.pending.push([k, v]);
    if (committed.has(k) || tx.writes.has(k)) throw new Error(`${k} exists`);
    tx.writes.set(k, v);
  };
  return { db, committed, log, create };
}

/**
 * A database with sessions: each transaction records the session it ran in, waits at its commit for `gate` (when
 * set), and fails there when `failing` names it.
 */
function sessions() {
  let opened = 0;
  const ranIn: number[] = [];
  const state: { gate?: Promise<void>; failing?: number } = {};
  const db: BatchDatabase<object, number> = {
    async session(fn) {
      return fn(++opened);
    },
    async transaction(body, { session }) {
      ranIn.push(session ?? 0);
      await body({});
      await state.gate;
      if (state.failing === ranIn.length) throw new Error(`transaction ${ranIn.length} failed`);
    },
    async savepoint() {},
    async rollbackTo() {},
    retryable: () => false,
    deferredFailed: () => false,
    maxAttempts: 3,
  };
  return { db, ranIn, state };
}

describe('CommitGroups', () => {
  it('answers every waiting write the error of a transaction that cannot begin, instead of trying again forever', async () => {
    const db = closed();
    const groups = new CommitGroups(db);
    const writes = [1, 2, 3].map((i) => groups.run('g', async () => i));
    for (const w of writes) await expect(w).rejects.toThrow('Cannot use a pool after calling end on the pool');
    expect(db.begun).toBe(3);
  });

  it('tries a retryable failure to begin at most maxAttempts times per write', async () => {
    const db = closed(true);
    await expect(new CommitGroups(db).run('g', async () => 1)).rejects.toThrow('pool');
    expect(db.begun).toBe(3);
  });

  it('runs a batch whose deferred write did not apply again without deferring: each member then answers its own error', async () => {
    const { db, committed, log, create } = keyed();
    const groups = new CommitGroups(db);
    // The first write holds the batch open while the others queue behind it.
    let open!: () => void;
    const held = new Promise<void>((r) => (open = r));
    const first = groups.run('g', async (tx) => {
      await held;
      create(tx, 'a', 1);
      return 'a';
    });
    const others = ['b', 'a', 'c'].map((k, i) => groups.run('g', async (tx) => (create(tx, k, i + 2), k)));
    open();
    const answers = await Promise.allSettled([first, ...others]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual(['a', 'b', 'a exists', 'c']);
    expect(Object.fromEntries(committed)).toEqual({ a: 1, b: 2, c: 4 });
    // All four ride in one deferred transaction, refused at its end (nothing commits); they run again, the first
    // plainly and the others each in a savepoint, and the one whose key is taken is rolled back alone.
    expect(log).toEqual(['begin deferred', 'begin', 'savepoint', 'savepoint', 'rollback to', 'savepoint', 'commit']);
  });

  it('runs batches that follow one another in one session; a batch that fails ends it, and the next takes a new one', async () => {
    const { db, ranIn, state } = sessions();
    const groups = new CommitGroups(db);
    let open!: () => void;
    state.gate = new Promise<void>((r) => (open = r));
    const first = groups.run('g', async () => 'a');
    // Arrives while the first batch is at its commit: the next batch, in the same session.
    await new Promise((r) => setImmediate(r));
    state.gate = undefined;
    state.failing = 2;
    const second = groups.run('g', async () => 'b');
    open();
    expect(await first).toBe('a');
    await expect(second).rejects.toThrow('transaction 2 failed');
    expect(ranIn).toEqual([1, 1]);
    // The failed batch ended its session: the next write runs in a new one.
    expect(await groups.run('g', async () => 'c')).toBe('c');
    expect(ranIn).toEqual([1, 1, 2]);
  });
});
