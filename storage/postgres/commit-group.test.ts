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
    maxAttempts: 3,
  };
  return db;
};

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
});
