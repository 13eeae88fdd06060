import { nameOf, storedDashboard as stored } from '../../test/fixtures/legacy-dashboard';
import { restoreMessage, toVersionMeta } from './versions-conversions';

describe('version conversions', () => {
  it('shows a version of the history as its record, with data on request', () => {
    const v = toVersionMeta(stored, nameOf, true);
    expect(v).toEqual({
      id: 1700000000000123,
      dashboardId: 7,
      uid: 'abc',
      parentVersion: 2,
      restoredFrom: 0,
      version: 3,
      created: '2026-01-02T00:00:00Z',
      createdBy: 'bo',
      message: 'tuned',
      data: { title: 'API: latency', tags: ['prod'], id: 7, uid: 'abc', version: 3 },
    });
    const first = { ...stored, metadata: { ...stored.metadata, generation: 1, annotations: { 'svc.app/createdBy': 'user:gone' } } };
    expect(toVersionMeta(first, nameOf)).toMatchObject({ parentVersion: 0, created: '2026-01-01T00:00:00Z', createdBy: 'Anonymous', message: '' });
    expect(toVersionMeta(first, nameOf)).not.toHaveProperty('data');
  });

  it('words a restore as the anchor does', () => {
    expect(restoreMessage(4)).toBe('Restored from version 4');
  });
});
