import { preferencesSubjectOf } from './effective';
import { defaultPreferences, preferencesName } from './preferences-directory';

describe('preferencesName', () => {
  it('names the owner, with a digest for a uid that cannot be part of a name', () => {
    expect(preferencesName({ kind: 'org' })).toBe('org');
    expect(preferencesName({ kind: 'user', uid: 'admin' })).toBe('user-admin');
    expect(preferencesName({ kind: 'team', uid: 'k3v9q0x1m2b7c4' })).toBe('team-k3v9q0x1m2b7c4');
    const odd = preferencesName({ kind: 'user', uid: 'ana@example.com' });
    expect(odd).toMatch(/^user-[0-9a-f]{32}$/);
    expect(preferencesName({ kind: 'user', uid: 'x'.repeat(40) })).toMatch(/^user-[0-9a-f]{32}$/);
    expect(preferencesName({ kind: 'user', uid: 'bob@example.com' })).not.toBe(odd);
  });
});

describe('preferencesSubjectOf', () => {
  it('is a user only for user identities', () => {
    expect(preferencesSubjectOf({ identity: 'user:ana', orgId: 2 })).toEqual({ orgId: 2, userUid: 'ana' });
    expect(preferencesSubjectOf({ identity: 'service-account:robot', orgId: 1 })).toEqual({ orgId: 1 });
    expect(preferencesSubjectOf({ identity: 'anonymous', orgId: 1 })).toEqual({ orgId: 1 });
  });
});

describe('defaultPreferences', () => {
  it('sets nothing', () => {
    expect(defaultPreferences()).toEqual({
      theme: '', homeDashboardUID: '', timezone: '', weekStart: '', language: '', regionalFormat: '',
      navbar: { bookmarkUrls: null }, queryHistory: { homeTab: '' }, cookiePreferences: {},
    });
  });
});
