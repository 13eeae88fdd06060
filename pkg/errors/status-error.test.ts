import { notFoundAsUndefined, StatusError } from './status-error';

describe('notFoundAsUndefined', () => {
  it('turns a 404 into undefined', async () => {
    await expect(Promise.reject(StatusError.notFound({ group: 'g', resource: 'r' }, 'x')).catch(notFoundAsUndefined)).resolves.toBeUndefined();
  });

  it('rethrows an outage and anything that is not a StatusError', async () => {
    const outage = StatusError.unavailable('the database is unavailable');
    await expect(Promise.reject(outage).catch(notFoundAsUndefined)).rejects.toBe(outage);
    const bug = new TypeError('x is undefined');
    await expect(Promise.reject(bug).catch(notFoundAsUndefined)).rejects.toBe(bug);
  });
});
