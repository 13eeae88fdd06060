import { Client } from 'pg';
import type { TestApp } from './app';

/**
 * Everything the database holds of a resource type, as text, to look for what must never be stored in clear: on
 * the postgres backend every row of every table (read raw with SQL, so nothing the server's code path filters is
 * missed); on the embedded one, which only the process can open, every current object and history row of the type.
 *
 * @example expect(await storedText(t, { group: 'dashboard.svc.app', resource: 'snapshots' })).not.toContain(secret);
 */
export async function storedText(t: TestApp, type: { group: string; resource: string }): Promise<string> {
  if (t.databaseUrl) {
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const tables = await db.query<{ name: string }>("SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public'");
      const dumps: string[] = [];
      for (const { name } of tables.rows) dumps.push((await db.query<{ text: string | null }>(`SELECT string_agg(t::text, E'\\n') AS text FROM ${name} t`)).rows[0]?.text ?? '');
      return dumps.join('\n');
    } finally {
      await db.end();
    }
  }
  const current = await t.storage.list({ ...type, namespace: '', everyNamespace: true });
  const history = await t.storage.eventsSince(type, 0, 100_000);
  return JSON.stringify([current.items, history]);
}
