import type { StoredUser } from '../../pkg/auth/identity/identity-directory';
import { fromOrgDetailsDTO, fromOrgDTO, fromOrgUserDTO, parseOrgAddressForm, parseRole, toOrgAddressForm, toOrgDetailsDTO, toOrgDTO, toOrgUserDTO } from './orgs-conversions';

const user: StoredUser = {
  id: 3, uid: 'u-3', login: 'cy', email: 'cy@example.com', name: 'Cy', isSvcAdmin: false, isDisabled: false, orgId: 1,
  created: '2026-01-02T03:04:05Z', updated: '2026-01-02T03:04:05Z',
};

describe('orgs conversions', () => {
  it('round-trips an org through OrgDTO', () => {
    expect(fromOrgDTO(toOrgDTO({ id: 2, name: 'Ops' }))).toEqual({ id: 2, name: 'Ops' });
  });

  it('round-trips a membership through OrgUserDTO', () => {
    const dto = toOrgUserDTO(4, user, 'Admin');
    expect(dto).toMatchObject({ orgId: 4, userId: 3, login: 'cy', email: 'cy@example.com', role: 'Admin' });
    expect(fromOrgUserDTO(dto)).toEqual({ orgId: 4, userId: 3, role: 'Admin' });
  });

  it('shows the member\'s last activity as the anchor: whole seconds and an age, ten years before creation when never active', () => {
    const now = Date.parse('2026-01-02T03:10:05Z');
    expect(toOrgUserDTO(4, user, 'Viewer', undefined, now)).toMatchObject({ lastSeenAt: '2016-01-02T03:04:05Z', lastSeenAtAge: '10 years' });
    expect(toOrgUserDTO(4, user, 'Viewer', '2026-01-02T03:05:04.900Z', now)).toMatchObject({ lastSeenAt: '2026-01-02T03:05:04Z', lastSeenAtAge: '5 minutes' });
  });

  it('accepts only the four org roles', () => {
    expect(parseRole('Editor')).toBe('Editor');
    expect(parseRole('None')).toBe('None');
    expect(parseRole('editor')).toBeUndefined();
    expect(parseRole(1)).toBeUndefined();
  });
});

describe('org details conversions', () => {
  const address = { address1: 'Karl Johans gate 1', address2: '', city: 'Oslo', zipCode: '0154', state: '', country: 'Norway' };

  it('round-trips an org through OrgDetailsDTO; no address is six empty lines', () => {
    expect(fromOrgDetailsDTO(toOrgDetailsDTO({ id: 2, name: 'Ops', address }))).toEqual({ id: 2, name: 'Ops', address });
    expect(toOrgDetailsDTO({ id: 1, name: 'Main Org.' }).address).toEqual({ address1: '', address2: '', city: '', zipCode: '', state: '', country: '' });
  });

  it('round-trips the address form, whose zip code is `zipcode`; lines left out are empty, a line that is no string refuses it', () => {
    expect(parseOrgAddressForm(toOrgAddressForm(address))).toEqual(address);
    expect(parseOrgAddressForm({ city: 'Bergen' })).toEqual({ address1: '', address2: '', city: 'Bergen', zipCode: '', state: '', country: '' });
    for (const bad of [null, [], 'x', { city: 1 }, { zipcode: null }]) expect(parseOrgAddressForm(bad)).toBeUndefined();
  });
});
