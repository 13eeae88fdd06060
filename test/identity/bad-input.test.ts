/** The identity endpoints answer bad input with a clear 4xx `{message}` and store nothing. */
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Without the members' last activity: the admin's own requests move it, bad input or not.
const state = async () => ({
  users: (await t.as.get('/api/org/users')).body.map(({ lastSeenAt: _at, lastSeenAtAge: _age, ...member }: Record<string, unknown>) => member),
  orgs: (await t.as.get('/api/orgs')).body,
});

it('wrong types, missing fields, unknown and malformed ids are 4xx {message}; nothing changes', async () => {
  const before = await state();
  const cases: [string, () => Promise<{ status: number; body: Record<string, unknown> }>][] = [
    ['create user: no login or email', () => t.as.post('/api/admin/users').send({ password: 'long-enough-1' })],
    ['create user: password a number', () => t.as.post('/api/admin/users').send({ login: 'typed', password: 12345678 })],
    ['create user: body an array', () => t.as.post('/api/admin/users').send([1])],
    ['create user: malformed JSON', () => t.as.post('/api/admin/users').set('Content-Type', 'application/json').send('{"login":')],
    ['password of an unknown user', () => t.as.put('/api/admin/users/999/password').send({ password: 'long-enough-1' })],
    ['password of a non-numeric id', () => t.as.put('/api/admin/users/abc/password').send({ password: 'long-enough-1' })],
    ['permissions: isSvcAdmin a string', () => t.as.put('/api/admin/users/1/permissions').send({ isSvcAdmin: 'yes' })],
    ['delete an unknown user', () => t.as.delete('/api/admin/users/999')],
    ['add org user: unknown login', () => t.as.post('/api/org/users').send({ loginOrEmail: 'nobody', role: 'Viewer' })],
    ['add org user: bad role', () => t.as.post('/api/org/users').send({ loginOrEmail: 'admin', role: 'Boss' })],
    ['patch org user: unknown id', () => t.as.patch('/api/org/users/999').send({ role: 'Editor' })],
    ['use an unknown org', () => t.as.post('/api/user/using/999')],
    ['create org: no name', () => t.as.post('/api/orgs').send({})],
    ['oversized body', () => t.as.post('/api/orgs').send({ name: 'x'.repeat(11 * 1024 * 1024) })],
  ];
  const codes: [string, number, string][] = [];
  for (const [label, send] of cases) {
    const res = await send();
    codes.push([label, res.status, String(res.body.message)]);
    expect([label, res.status >= 400 && res.status < 500]).toEqual([label, true]);
    expect([label, typeof res.body.message]).toEqual([label, 'string']);
  }
  // The anchor's codes, including 401 for switching to an organization that does not exist.
  expect(codes.map(([label, code]) => [label, code])).toEqual([
    ['create user: no login or email', 400],
    ['create user: password a number', 400],
    ['create user: body an array', 400],
    ['create user: malformed JSON', 400],
    ['password of an unknown user', 404],
    ['password of a non-numeric id', 400],
    ['permissions: isSvcAdmin a string', 400],
    ['delete an unknown user', 404],
    ['add org user: unknown login', 404],
    ['add org user: bad role', 400],
    ['patch org user: unknown id', 404],
    ['use an unknown org', 401],
    ['create org: no name', 400],
    ['oversized body', 413],
  ]);
  expect(await state()).toEqual(before);
});
