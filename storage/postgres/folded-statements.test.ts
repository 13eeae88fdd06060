import { escapeLiteral } from 'pg';
import { foldedLock, foldStatements, inlined, THEN_COMMIT } from './folded-statements';

test('foldedLock: BEGIN and the lock of the types, written into one text in the order given', () => {
  expect(foldedLock([{ group: 'dashboard.svc.app', resource: 'dashboards' }, { group: 'iam.svc.app', resource: 'resourcepermissions' }])).toBe(
    `begin; select "group", "resource", "resource_version", "last_internal_id" from "resource_version" where ("group", "resource") in (('dashboard.svc.app', 'dashboards'), ('iam.svc.app', 'resourcepermissions')) order by ("group" || '/' || "resource") collate "C" for update`,
  );
});

test('foldedLock: nothing for a name that would need quoting, or for no type (the lock is then bound, BEGIN sent alone)', () => {
  expect(foldedLock([{ group: "x'; drop table resource; --", resource: 'things' }])).toBeUndefined();
  expect(foldedLock([{ group: 'a.b', resource: 'back\\slash' }])).toBeUndefined();
  expect(foldedLock([{ group: 'a.b', resource: '' }])).toBeUndefined();
  expect(foldedLock([])).toBeUndefined();
});

test('inlined: strings, numbers, null and arrays of strings as literals; $10 is not $1 followed by 0', () => {
  const values = ["it's", 12, null, ['a', 'b"c', 'd\\e'], 'back\\slash', 6, 7, 8, 9, 'ten'];
  // pg's escapeLiteral: a string with a backslash is an E'' string (with a space before it), its backslashes doubled.
  expect(inlined('select $1, $2::bigint, $3, $4::text[], $5, $10', values)).toBe(
    String.raw`select 'it''s', '12'::bigint, NULL,  E'{"a","b\\"c","d\\\\e"}'::text[],  E'back\\slash', 'ten'`,
  );
  // What cannot be a literal leaves the statement bound.
  expect(inlined('select $1', [{ a: 1 }])).toBeUndefined();
  expect(inlined('select $1', [Number.NaN])).toBeUndefined();
});

/** A pg Client stand-in: what it was sent, and pg's answers (an array of results for several statements). */
function fakeClient(answer: (text: string, values: unknown[]) => unknown) {
  const sent: [string, unknown[]][] = [];
  const client = {
    query: (...args: unknown[]) => {
      const [text, values] = args as [string, unknown[]];
      sent.push([text, values]);
      if (typeof args[args.length - 1] === 'function') return undefined;
      return Promise.resolve(answer(text, values));
    },
  };
  foldStatements(client);
  return { query: client.query as (...args: unknown[]) => Promise<unknown>, sent };
}

test('foldStatements: several statements answer the result that is not BEGIN or COMMIT; one statement its own; callbacks untouched', async () => {
  const { query, sent } = fakeClient((text) =>
    text.includes(';') ? [{ command: 'BEGIN', rows: [] }, { command: 'SELECT', rows: [{ a: 1 }] }, { command: 'COMMIT', rows: [] }] : { command: 'SELECT', rows: [{ b: 2 }] },
  );
  await expect(query('begin; select 1; commit', [])).resolves.toEqual({ command: 'SELECT', rows: [{ a: 1 }] });
  await expect(query('select 2', [])).resolves.toEqual({ command: 'SELECT', rows: [{ b: 2 }] });
  expect((query as (...a: unknown[]) => unknown)('select 3', [], () => undefined)).toBeUndefined();
  expect(sent.map((c) => c[0])).toEqual(['begin; select 1; commit', 'select 2', 'select 3']);
});

test('foldStatements: a THEN_COMMIT statement goes with COMMIT in one message, its values written in; else bound, then COMMIT', async () => {
  const { query, sent } = fakeClient((text) => (text.includes('; commit') ? [{ command: 'SELECT', rows: [{ n: 2 }] }, { command: 'COMMIT', rows: [] }] : { command: text === 'commit' ? 'COMMIT' : 'SELECT', rows: [{ n: 1 }] }));
  await expect(query(`${THEN_COMMIT}select $1::int as n`, [2])).resolves.toEqual({ command: 'SELECT', rows: [{ n: 2 }] });
  expect(sent).toEqual([[`${THEN_COMMIT}select '2'::int as n; commit`, []]]);
  sent.length = 0;
  await expect(query(`${THEN_COMMIT}select $1 as n`, [{ not: 'a literal' }])).resolves.toEqual({ command: 'SELECT', rows: [{ n: 1 }] });
  expect(sent).toEqual([[`${THEN_COMMIT}select $1 as n`, [{ not: 'a literal' }]], ['commit', undefined]]);
});

test("inlined: a string's literal is pg's own escapeLiteral of it", () => {
  const samples = ['', 'plain', "it's", 'a\\b', "both ' and \\ and ''\\\\", '{"json": "with \\"quotes\\" and \\\\n"}', 'ünïcödé ☃ 𝄞'];
  for (const s of samples) expect(inlined('$1', [s])).toBe(escapeLiteral(s));
});
