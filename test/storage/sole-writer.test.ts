/**
 * The embedded database's versions without a statement (storage/postgres/sole-writer.ts): this process
 * is its only writer, so the versions read last hold until one of its statements may write. Never stale: a read that
 * overlaps a write, a commit or a rollback does not count as unchanged.
 */
import { type Storage, openStorage } from '../../storage';
import { soleWriter } from '../../storage/postgres/sole-writer';
import { PREPARED } from '../../storage/postgres/prepared';
import { createTestDatabase, type TestDatabase } from '../support/backend';

describe('soleWriter', () => {
  /** A query function whose every call waits until the test ends it. */
  function pending() {
    const calls: { sql: string; end: () => void }[] = [];
    const query = (sql: string) => new Promise<string>((resolve) => calls.push({ sql, end: () => resolve(sql) }));
    return { calls, query };
  }

  it('a mark stays unchanged through reads, and not through a write: from its start to after its end', async () => {
    const writer = soleWriter();
    const { calls, query } = pending();
    const watched = writer.watch(query);
    const mark = writer.mark();
    const read = watched(`${PREPARED}select 1`);
    const plain = watched('  SELECT 2');
    calls[0].end();
    calls[1].end();
    await Promise.all([read, plain]);
    expect(writer.unchangedSince(mark)).toBe(true);

    const write = watched('WITH counter AS (UPDATE resource_version SET resource_version = 2) SELECT 1');
    expect(writer.unchangedSince(mark)).toBe(false);
    // A mark taken while the write runs is not unchanged either, until it has ended.
    const during = writer.mark();
    expect(writer.unchangedSince(during)).toBe(false);
    calls[2].end();
    await write;
    expect(writer.unchangedSince(during)).toBe(false);
    const after = writer.mark();
    expect(writer.unchangedSince(after)).toBe(true);
  });

  it('counts BEGIN, COMMIT, ROLLBACK, DDL and data-modifying statements as writes', async () => {
    for (const sql of ['begin', 'commit', 'rollback', 'insert into resource values (1)', `${PREPARED}\n WITH counter AS (UPDATE x SET y = 1) INSERT INTO z SELECT 1`, 'create table t (a int)', 'delete from t']) {
      const writer = soleWriter();
      const mark = writer.mark();
      await writer.watch(async (text: string) => text)(sql);
      expect({ sql, unchanged: writer.unchangedSince(mark) }).toEqual({ sql, unchanged: false });
    }
  });

  it('a failed write counts too', async () => {
    const writer = soleWriter();
    const mark = writer.mark();
    await expect(writer.watch(async (_text: string) => Promise.reject(new Error('refused')))('update t set a = 1')).rejects.toThrow('refused');
    expect(writer.unchangedSince(mark)).toBe(false);
  });
});

describe('the embedded storage', () => {
  const TYPE = { group: 'sole.test', resource: 'things' };
  const key = (name: string) => ({ ...TYPE, namespace: 'default', name });
  let db: TestDatabase;
  let storage: Storage;
  let statements: string[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('embedded', { migrated: true });
    storage = await openStorage({ url: undefined, dataDir: '', inMemory: true, image: db.image });
    await storage.registerTypes([TYPE]);
    storage.observeQueries((_s, _f, sql) => statements.push(sql));
  }, 60_000);
  afterAll(async () => {
    await storage.close();
    await db.drop();
  });

  const versionOf = (versions: readonly { group: string; resource: string; current: number }[]) => versions.find((v) => v.group === TYPE.group && v.resource === TYPE.resource)?.current ?? 0;
  const counted = async <T>(fn: () => Promise<T>) => {
    statements = [];
    const result = await fn();
    return { result, statements: statements.length };
  };

  it('answers the versions without a statement until it writes, then reads them again', async () => {
    await storage.allVersions();
    const before = await counted(() => storage.allVersions());
    expect(before.statements).toBe(0);

    const created = await storage.transact((tx) => tx.create(key('a'), { metadata: { name: 'a' } }, { folder: '' }));
    const after = await counted(() => storage.allVersions());
    expect(after.statements).toBe(1);
    expect(versionOf(after.result)).toBe(created.resourceVersion);
    expect((await counted(() => storage.allVersions())).statements).toBe(0);
  });

  it('with an object: the object alone is read while the versions hold', async () => {
    await storage.allVersions();
    const both = await counted(() => storage.allVersionsWith!(key('a')));
    expect(both.statements).toBe(1);
    expect(both.result.object?.key.name).toBe('a');
    expect(versionOf(both.result.versions)).toBe(both.result.object?.resourceVersion);
  });

  it('a transaction that fails and rolls back makes it read them again, and they have not moved', async () => {
    const known = versionOf(await storage.allVersions());
    await expect(storage.transact(async (tx) => {
      await tx.create(key('b'), { metadata: { name: 'b' } }, { folder: '' });
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    const again = await counted(() => storage.allVersions());
    expect(again.statements).toBe(1);
    expect(versionOf(again.result)).toBe(known);
    expect(await storage.get(key('b'))).toBeUndefined();
  });

  it('writes made while a read of the versions runs are in the next read', async () => {
    await storage.allVersions();
    const [, created] = await Promise.all([storage.allVersions(), storage.transact((tx) => tx.create(key('c'), { metadata: { name: 'c' } }, { folder: '' }))]);
    expect(versionOf(await storage.allVersions())).toBe(created.resourceVersion);
  });
});
