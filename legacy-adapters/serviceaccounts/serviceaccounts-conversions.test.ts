import type { StoredServiceAccount, StoredToken } from '../../pkg/auth/identity/service-accounts';
import { serviceAccountLogin } from '../../pkg/auth/identity/service-accounts';
import { fromServiceAccountDTO, fromServiceAccountProfileDTO, fromTokenDTO, toServiceAccountDTO, toServiceAccountProfileDTO, toTokenDTO } from './serviceaccounts-conversions';

const sa: StoredServiceAccount = {
  id: 4,
  uid: 'k3j9x0c1v2b3n4',
  orgId: 2,
  name: 'CI Bot',
  login: 'sa-2-ci-bot',
  role: 'Editor',
  isDisabled: false,
  created: '2026-01-02T03:04:05Z',
  updated: '2026-01-03T03:04:05Z',
};

const now = Date.parse('2026-01-10T00:00:00Z');
const token = (expires: string | null): StoredToken => ({ id: 9, name: 'deploy', serviceAccountUid: sa.uid, created: '2026-01-02T00:00:00Z', expires, lastUsedAt: null });

describe('service account conversions', () => {
  it('round-trips a service account through ServiceAccountDTO and ServiceAccountProfileDTO', () => {
    const dto = toServiceAccountDTO(sa, 3);
    expect(dto).toMatchObject({ id: 4, uid: sa.uid, name: 'CI Bot', login: 'sa-2-ci-bot', orgId: 2, role: 'Editor', tokens: 3 });
    expect(dto.avatarUrl).toMatch(/^\/avatar\/[0-9a-f]{32}$/);
    expect(fromServiceAccountDTO(dto, sa.created, sa.updated)).toEqual(sa);
    const profile = toServiceAccountProfileDTO(sa);
    expect(profile).toMatchObject({ createdAt: sa.created, updatedAt: sa.updated, teams: [] });
    expect(fromServiceAccountProfileDTO(profile)).toEqual(sa);
  });

  it('round-trips a token through TokenDTO, which never carries a key', () => {
    const never = toTokenDTO(token(null), now);
    expect(never).toEqual({ id: 9, name: 'deploy', created: '2026-01-02T00:00:00Z', lastUsedAt: null, expiration: null, secondsUntilExpiration: 0, hasExpired: false, isRevoked: false });
    expect(fromTokenDTO(never, sa.uid)).toEqual(token(null));
    for (const expires of ['2026-01-10T01:00:00.000Z', '2026-01-09T00:00:00.000Z', '2026-03-01T00:00:00.000Z']) {
      expect(fromTokenDTO(toTokenDTO(token(expires), now), sa.uid)).toEqual(token(expires));
    }
  });

  it('counts down the last week before an expiry only, as the anchor does', () => {
    expect(toTokenDTO(token('2026-01-10T01:00:00.000Z'), now)).toMatchObject({ hasExpired: false, secondsUntilExpiration: 3600 });
    expect(toTokenDTO(token('2026-03-01T00:00:00.000Z'), now)).toMatchObject({ hasExpired: false, secondsUntilExpiration: 0 });
    expect(toTokenDTO(token('2026-01-09T00:00:00.000Z'), now)).toMatchObject({ hasExpired: true, secondsUntilExpiration: 0 });
  });

  it("derives the anchor's login: sa-<org>-<slug>", () => {
    expect(serviceAccountLogin(1, 'CI Bot')).toBe('sa-1-ci-bot');
    expect(serviceAccountLogin(3, 'Déploiement: prod!')).toBe('sa-3-deploiement-prod');
    expect(serviceAccountLogin(1, '***')).toMatch(/^sa-1-[0-9a-f]{8}$/);
  });
});
