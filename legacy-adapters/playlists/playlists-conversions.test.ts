import type { Resource } from '../../pkg/meta';
import { parsePlaylistCommand, toPlaylistDTO, toPlaylistHit, toPlaylistSpec } from './playlists-conversions';

const items = [{ type: 'dashboard_by_uid', value: 'abc' }];
const stored = (spec: Record<string, unknown>): Resource =>
  ({ apiVersion: 'playlist.svc.app/v1', kind: 'Playlist', metadata: { name: 'p1', labels: { 'svc.app/deprecatedInternalID': '7' } }, spec }) as unknown as Resource;

test('a command round-trips through the spec back to the DTO', () => {
  const cmd = parsePlaylistCommand({ uid: 'p1', name: 'Morning', interval: '5m', items: [{ ...items[0], id: 3, order: 1, title: 'unused' }] });
  const dto = toPlaylistDTO(stored(toPlaylistSpec(cmd)));
  expect(dto).toEqual({ uid: 'p1', name: 'Morning', interval: '5m', items });
  expect(parsePlaylistCommand(dto)).toEqual({ uid: 'p1', name: 'Morning', interval: '5m', items });
  expect(toPlaylistHit(stored(toPlaylistSpec(cmd)))).toEqual({ id: 7, uid: 'p1', name: 'Morning', interval: '5m' });
});

test('binding refuses what is no playlist body; an empty uid is none', () => {
  for (const bad of [null, [], 'x', { items: 'x' }, { items: [1] }, { uid: 3 }]) expect(() => parsePlaylistCommand(bad)).toThrow('bad request data');
  expect(parsePlaylistCommand({ uid: '', name: 'n', interval: '1m', items: null }).uid).toBeUndefined();
});
