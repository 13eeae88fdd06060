/**
 * Marked statements (storage/postgres/prepared.ts) on a real PostgreSQL connection: prepared once under a name derived from their
 * text, run with each call's own parameters; anything else runs as before.
 */
import { Client } from 'pg';
import { openStorage, type Storage } from '../../storage';
import { adminUrl, createTestDatabase, type TestDatabase } from '../support/backend';
import { startTcpProxy } from '../support/tcp-proxy';

const TYPE = { group: 'prepared.test', resource: 'things' };
import { PREPARED, prepareMarked, statementName } from '../../storage/postgres/prepared';

describe('prepareMarked', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ connectionString: adminUrl() });
    await client.connect();
    prepareMarked(client);
  });
  afterAll(() => client.end());

  const preparedHere = async () => (await client.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements order by name')).rows;

  it('prepares a marked text once under its name and runs it with each call\'s parameters', async () => {
    const text = `${PREPARED}select $1::int + 1 as n`;
    expect((await client.query(text, [1])).rows).toEqual([{ n: 2 }]);
    expect((await client.query(text, [41])).rows).toEqual([{ n: 42 }]);
    expect(await preparedHere()).toEqual([{ name: statementName(text), statement: text }]);
  });

  it('runs unmarked texts, query objects and callbacks as pg does, unprepared', async () => {
    expect((await client.query('select $1::int * 2 as n', [21])).rows).toEqual([{ n: 42 }]);
    expect((await client.query({ text: 'select $1::text as s', values: ['x'] })).rows).toEqual([{ s: 'x' }]);
    const viaCallback = await new Promise((resolve, reject) => client.query(`${PREPARED}select 7 as n`, (err, res) => (err ? reject(err) : resolve(res.rows))));
    expect(viaCallback).toEqual([{ n: 7 }]);
    expect((await preparedHere()).map((r) => r.statement)).not.toContain('select $1::int * 2 as n');
    expect((await preparedHere()).map((r) => r.statement)).not.toContain(`${PREPARED}select 7 as n`);
  });

  it('a failing marked statement fails its call only: the connection and the prepared statement go on', async () => {
    const text = `${PREPARED}select 10 / $1::int as n`;
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await client.query(text, [5])).rows).toEqual([{ n: 2 }]);
  });

  it('names a text the same way every time, and differently from another text', () => {
    const a = statementName(`${PREPARED}select 1`);
    expect(a).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    expect(statementName(`${PREPARED}select 1`)).toBe(a);
    expect(statementName(`${PREPARED}select 2`)).not.toBe(a);
  });
});

/**
 * Through openStorage, with what the pool sends to PostgreSQL watched: the read of an object by key is parsed once
 * per connection under its name; `preparedStatements: false` ([database] prepared_statements) parses it at every call,
 * unnamed (a pooler in transaction mode cannot keep named statements).
 */
describe.each([true, false])('openStorage with preparedStatements: %s', (preparedStatements) => {
  let db: TestDatabase;
  let storage: Storage;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let sent = '';
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrated: true });
    const url = new URL(db.url!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) }, { sent: (chunk) => (sent += chunk.toString('latin1')) });
    url.host = `127.0.0.1:${proxy.port}`;
    // One connection in the pool (the least openStorage allows is two; the reads below run one at a time on one).
    storage = await openStorage({ url: url.toString(), dataDir: '', maxConnections: 1, preparedStatements });
    await storage.registerTypes([TYPE]);
    await storage.transact((tx) => tx.create({ ...TYPE, namespace: 'default', name: 'a' }, { metadata: { name: 'a' } }, { folder: '' }));
  }, 60_000);
  afterAll(async () => {
    await storage.close();
    await proxy.close();
    await db.drop();
  });

  it(preparedStatements ? 'names the statement and sends its text once' : 'sends the text at every call, unnamed', async () => {
    sent = '';
    for (let i = 0; i < 3; i++) expect((await storage.get({ ...TYPE, namespace: 'default', name: 'a' }))?.value).toMatchObject({ metadata: { name: 'a' } });
    const texts = sent.split(PREPARED).length - 1;
    const named = (sent.match(/svc_[A-Za-z0-9_-]{32}/g) ?? []).length;
    if (preparedStatements) {
      expect(texts).toBeLessThanOrEqual(1);
      // Each call binds the named statement: its name travels in every Bind message.
      expect(named).toBeGreaterThanOrEqual(3);
    } else {
      expect(texts).toBe(3);
      expect(named).toBe(0);
    }
  });
});
