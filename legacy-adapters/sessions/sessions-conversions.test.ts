import type { AuthTokenRecord } from '../../pkg/auth/authentication/sessions';
import { fromLoginBody, fromRevokeAuthTokenBody, toUserTokenDTO } from './sessions-conversions';

const record: AuthTokenRecord = {
  id: 4,
  userId: 7,
  clientIp: '192.0.2.1',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
  createdAt: '2026-11-22T06:50:01.234Z',
  seenAt: '2026-11-22T07:00:59.999Z',
};

describe('sessions conversions', () => {
  it('shows a session as the anchor\'s UserToken, device parsed, times in seconds, the User-Agent itself not shown', () => {
    expect(toUserTokenDTO(record, 4)).toEqual({
      id: 4, isActive: true, clientIp: '192.0.2.1', browser: 'Safari', browserVersion: '17.2', os: 'iOS', osVersion: '17.2',
      device: 'iPhone', createdAt: '2026-11-22T06:50:01Z', seenAt: '2026-11-22T07:00:59Z',
    });
    expect(toUserTokenDTO(record, 5).isActive).toBe(false);
    expect(toUserTokenDTO(record, undefined).isActive).toBe(false);
    expect(toUserTokenDTO({ ...record, userAgent: '' }, undefined)).toMatchObject({ browser: 'Other', os: 'Other', device: 'Other', browserVersion: '' });
  });

  it('binds revoke bodies: an integer id, 0 when missing, nothing otherwise', () => {
    expect(fromRevokeAuthTokenBody({ authTokenId: 3 })).toEqual({ authTokenId: 3 });
    expect(fromRevokeAuthTokenBody({})).toEqual({ authTokenId: 0 });
    for (const bad of [{ authTokenId: '3' }, { authTokenId: 1.5 }, [1], null, 'x']) expect(fromRevokeAuthTokenBody(bad)).toBeUndefined();
  });

  it('binds login bodies: strings, missing ones empty, nothing otherwise', () => {
    expect(fromLoginBody({ user: 'ana', password: 'pw' })).toEqual({ user: 'ana', password: 'pw' });
    expect(fromLoginBody({ user: 'ana' })).toEqual({ user: 'ana', password: '' });
    for (const bad of [{ user: 1, password: 'x' }, { user: 'a', password: null }, ['a'], null, 'x']) expect(fromLoginBody(bad)).toBeUndefined();
  });
});
