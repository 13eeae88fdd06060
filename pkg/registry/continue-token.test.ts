import { StatusError } from '../errors';
import { decodeContinue, encodeContinue } from './continue-token';

test('round trip, in kube-apiserver format', () => {
  const token = encodeContinue(1795320716771000, 'dash-42');
  expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 1795320716771000, start: 'dash-42\u0000' });
  expect(decodeContinue(token)).toEqual({ resourceVersion: 1795320716771000, after: 'dash-42' });
});

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

test.each([
  ['not base64', '%%%'],
  ['not JSON', b64('{oops')],
  ['not an object', b64('42')],
  ['null', b64('null')],
  ['wrong version', b64({ v: 'meta.k8s.io/v2', rv: 5, start: 'a\u0000' })],
  ['rv a string', b64({ v: 'meta.k8s.io/v1', rv: '5', start: 'a\u0000' })],
  ['rv negative', b64({ v: 'meta.k8s.io/v1', rv: -5, start: 'a\u0000' })],
  ['rv fractional', b64({ v: 'meta.k8s.io/v1', rv: 1.5, start: 'a\u0000' })],
  ['rv too large', b64({ v: 'meta.k8s.io/v1', rv: 2 ** 60, start: 'a\u0000' })],
  ['start missing', b64({ v: 'meta.k8s.io/v1', rv: 5 })],
  ['start without terminator', b64({ v: 'meta.k8s.io/v1', rv: 5, start: 'a' })],
  ['start empty', b64({ v: 'meta.k8s.io/v1', rv: 5, start: '\u0000' })],
  ['start holding NUL', b64({ v: 'meta.k8s.io/v1', rv: 5, start: 'a\u0000b\u0000' })],
  ['start holding a lone surrogate', b64({ v: 'meta.k8s.io/v1', rv: 5, start: 'a\ud800\u0000' })],
])('a forged token (%s) is a 400, never a crash', (_why, token) => {
  try {
    decodeContinue(token);
    throw new Error('accepted');
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(400);
    expect((err as StatusError).message).toMatch(/^continue key is not valid: /);
  }
});
