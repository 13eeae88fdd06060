import { legacyCauseMessage, legacyInvalid } from './legacy-invalid';
import { StatusError } from './status-error';

describe('legacy words for the registry’s field errors', () => {
  it('names the legacy field, and words a length limit as the anchor does', () => {
    expect(legacyCauseMessage({ field: 'spec.title', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 5000 characters' })).toBe('title too long, max 5000 characters');
    expect(legacyCauseMessage({ field: 'spec.tags', reason: 'FieldValueTooMany', message: 'Too many: 7: must have at most 5 items' })).toBe('tags: Too many: 7: must have at most 5 items');
    expect(legacyCauseMessage({ message: 'no field' })).toBe('no field');
  });

  it('turns the registry’s 422 into a 400 without the kind’s internal name; other errors pass', () => {
    const invalid = StatusError.invalid({ group: 'iam.svc.app', kind: 'Team' }, 'abc', [{ field: 'spec.name', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 190 characters' }]);
    expect(invalid.message).toMatch(/^Team\.iam\.svc\.app "abc" is invalid/);
    const legacy = legacyInvalid(invalid);
    expect([legacy.code, legacy.message]).toEqual([400, 'name too long, max 190 characters']);
    const own = new StatusError(422, 'Invalid', 'Limit is above maximum allowed (5000), use page parameter to access hits beyond limit');
    expect(legacyInvalid(own)).toBe(own);
    const notFound = StatusError.notFound({ group: 'iam.svc.app', resource: 'teams' }, 'abc');
    expect(legacyInvalid(notFound)).toBe(notFound);
  });
});
