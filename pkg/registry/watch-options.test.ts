import { StatusError } from '../errors';
import { planWatch } from './watch-options';

function failure(o: Parameters<typeof planWatch>[0]): StatusError {
  try {
    planWatch(o);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(o)} to be refused`);
}

describe('planWatch', () => {
  it.each<[Parameters<typeof planWatch>[0], unknown]>([
    [{}, { from: 'list', endBookmark: false }],
    [{ resourceVersion: '' }, { from: 'list', endBookmark: false }],
    [{ resourceVersion: '0' }, { from: 'list', endBookmark: false }],
    [{ resourceVersion: '42' }, { from: 'version', resourceVersion: 42 }],
    [{ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, { from: 'list', endBookmark: false }],
    [{ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, { from: 'list', endBookmark: true }],
    [{ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '7' }, { from: 'list', endBookmark: false, notOlderThan: 7 }],
    [{ sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, { from: 'now' }],
    [{ sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, { from: 'now' }],
    [{ sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '9' }, { from: 'version', resourceVersion: 9 }],
  ])('%j starts %j', (o, start) => {
    expect(planWatch(o).start).toEqual(start);
  });

  it('defaults the timeout to 30-60 minutes, as kube-apiserver does; timeoutSeconds=0 is the default too', () => {
    expect(planWatch({}, () => 0).timeoutMs).toBe(1_800_000);
    expect(planWatch({ timeoutSeconds: 0 }, () => 0.5).timeoutMs).toBe(2_700_000);
    expect(planWatch({ timeoutSeconds: 5 }).timeoutMs).toBe(5000);
  });

  it('parses selectors up front', () => {
    const plan = planWatch({ labelSelector: 'a=b', fieldSelector: 'metadata.name=x' });
    expect(plan.labels).toEqual([{ key: 'a', operator: 'Equals', values: ['b'] }]);
    expect(plan.fields).toEqual([{ field: 'metadata.name', operator: 'Equals', value: 'x' }]);
    expect(failure({ labelSelector: 'a b' }).code).toBe(400);
    expect(failure({ fieldSelector: 'spec.x=1' }).message).toBe('field label not supported: spec.x');
  });

  it.each(['abc', '-1', '01', '1.5', ' 1', '12345678901234567'])('refuses resourceVersion %j with 400', (rv) => {
    const err = failure({ resourceVersion: rv });
    expect([err.code, err.reason, err.message]).toEqual([400, 'BadRequest', `invalid resourceVersion ${JSON.stringify(rv)}: must be a non-negative integer`]);
  });

  it.each<[Parameters<typeof planWatch>[0], string]>([
    [{ sendInitialEvents: true }, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    [{ sendInitialEvents: false }, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    [{ resourceVersionMatch: 'NotOlderThan' }, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'Exact' },
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
  ])('refuses %j as kube-apiserver does (422)', (o, message) => {
    const err = failure(o);
    expect([err.code, err.reason, err.message]).toEqual([422, 'Invalid', message]);
  });
});
