import { preferencesSpecSchema } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { isValidTimezone, parsePreferencesCommand, toPreferencesDTO } from './preferences-conversions';
import { DEFAULT_PREFERENCES_DTO } from '../../test/fixtures/legacy-preferences';

describe('parsePreferencesCommand', () => {
  it('keeps only the keys given, the home dashboard apart', () => {
    expect(parsePreferencesCommand({ theme: 'dark', homeDashboardUID: 'abc', cookies: ['performance'] })).toEqual({
      changes: { theme: 'dark', cookiePreferences: { performance: {} } },
      homeDashboardUID: 'abc',
      homeDashboardId: undefined,
    });
    expect(parsePreferencesCommand({ homeDashboardId: 7, navbar: {} })).toEqual({ changes: { navbar: { bookmarkUrls: null } }, homeDashboardUID: undefined, homeDashboardId: 7 });
  });

  it('takes the GET shape of consents back', () => {
    expect(parsePreferencesCommand({ cookiePreferences: { analytics: {} } }).changes).toEqual({ cookiePreferences: { analytics: {} } });
  });

  it.each([
    [{ theme: 'blue' }, 'Invalid theme'],
    [{ timezone: 'Nowhere/Land' }, 'Invalid timezone'],
    [{ timezone: 'Europe/../Paris' }, 'Invalid timezone'],
    ['dark', 'bad request data'],
    [{ weekStart: 1 }, 'bad request data'],
    [{ queryHistory: [] }, 'bad request data'],
    [{ homeDashboardId: 1.5 }, 'bad request data'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => parsePreferencesCommand(body)).toThrow(message);
  });
});

describe('isValidTimezone', () => {
  it.each(['', 'utc', 'browser', 'UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'])('accepts %j', (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });
  it.each(['Mars/Olympus', '+01:00', 'europe paris', '/Paris'])('refuses %j', (tz) => {
    expect(isValidTimezone(tz)).toBe(false);
  });
});

describe('toPreferencesDTO', () => {
  it('answers every key, the home dashboard as it still exists', () => {
    const spec = preferencesSpecSchema.parse({ theme: 'light', homeDashboardUID: 'gone' });
    expect(toPreferencesDTO(spec, { uid: '', id: 0 })).toEqual({ ...DEFAULT_PREFERENCES_DTO, theme: 'light' });
  });
});
