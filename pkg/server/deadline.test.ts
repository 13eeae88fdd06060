import { within } from './deadline';

describe('within', () => {
  it('answers what the promise settles to in time, else the fallback, and rejects as the promise does', async () => {
    expect(await within(Promise.resolve('done'), 1_000, 'late')).toBe('done');
    expect(await within(new Promise<string>(() => undefined), 10, 'late')).toBe('late');
    await expect(within(Promise.reject(new Error('failed')), 1_000, 'late')).rejects.toThrow('failed');
  });
});
