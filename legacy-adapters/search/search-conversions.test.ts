import { StatusError } from '../../pkg/errors';
import { folderUrl } from '../shared';
import { parseSearchParams, toHit } from './search-conversions';

describe('parseSearchParams', () => {
  it('binds every parameter, repeated ones as lists', () => {
    expect(
      parseSearchParams({
        query: 'lat', tag: ['a', 'b'], type: 'dash-db', folderUIDs: ['ops', 'general', ''], dashboardUIDs: 'x',
        starred: 'true', limit: '10', page: '3', sort: 'alpha-desc', permission: 'Edit',
      }),
    ).toEqual({
      query: 'lat', tags: ['a', 'b'], type: 'dash-db', folderUIDs: ['ops', '', ''], dashboardUIDs: ['x'],
      starred: true, limit: 10, page: 3, sort: 'alpha-desc', permission: 'Edit',
    });
  });

  it('defaults as the anchor: limit 1000, page 1, no sort, View; unknown values ignored', () => {
    expect(parseSearchParams({ limit: '-5', page: 'x', type: 'dash-other', sort: 'views-desc', starred: '1', tag: '' })).toEqual({
      query: '', tags: [], starred: false, limit: 1000, page: 1, permission: 'View',
    });
    expect(parseSearchParams({ dashboardUID: ['u'] }).dashboardUIDs).toEqual(['u']);
  });

  it('refuses a limit above 5000 with 422', () => {
    expect(parseSearchParams({ limit: '5000' }).limit).toBe(5000);
    expect(() => parseSearchParams({ limit: '5001' })).toThrow(StatusError);
    try {
      parseSearchParams({ limit: '5001' });
    } catch (err) {
      expect((err as StatusError).code).toBe(422);
    }
  });
});

describe('toHit', () => {
  it('builds a dashboard hit in a folder', () => {
    expect(toHit({ type: 'dash-db', name: 'lat', title: 'API latency', tags: ['b', 'a'], internalId: 3 }, true, { id: 1, uid: 'ops', title: 'Ops', url: folderUrl('ops', 'Ops') })).toEqual({
      id: 3, uid: 'lat', title: 'API latency', uri: 'db/api-latency', url: '/d/lat/api-latency', slug: 'api-latency', type: 'dash-db',
      tags: ['a', 'b'], isStarred: true, folderId: 1, folderUid: 'ops', folderTitle: 'Ops', folderUrl: '/dashboards/f/ops/ops', sortMeta: 0,
    });
  });

  it('names a folder the caller may not read by its uid alone', () => {
    const hit = toHit({ type: 'dash-db', name: 'lat', title: 'API latency', tags: [], internalId: 3 }, false, { uid: 'vault' });
    expect(hit).toMatchObject({ folderUid: 'vault' });
    expect(Object.keys(hit).filter((k) => k.startsWith('folder'))).toEqual(['folderUid']);
  });

  it('builds a root folder hit without folder fields', () => {
    expect(toHit({ type: 'dash-folder', name: 'ops', title: 'Ops & Co', tags: [], internalId: 1 }, false)).toEqual({
      id: 1, uid: 'ops', title: 'Ops & Co', uri: 'db/ops-co', url: '/dashboards/f/ops/ops-co', slug: 'ops-co', type: 'dash-folder',
      tags: [], isStarred: false, sortMeta: 0,
    });
  });
});
