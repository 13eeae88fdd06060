import type { KindRegistration, Resource } from '../meta';
import { historyValueOf } from './secret-fields';
import { dropReported, presentSecureValues, recryptedValue, sealSecureValues, secureValueCauses } from './secure-values';

const kind = { kind: 'Thing', secureValues: [{ path: 'spec.secureJsonData', reportAs: 'spec.secureJsonFields' }] } as unknown as KindRegistration;
const obj = (spec: object) => ({ metadata: { name: 'a' }, spec }) as unknown as Resource;
const seal = (p: string) => `#k#${Buffer.from(p).toString('base64')}`;

describe('secure values', () => {
  it('seals non-empty values, removes keys sent as "", keeps omitted keys of the stored object', () => {
    const stored = obj({ url: 'u', secureJsonData: { a: '#k#old-a', b: '#k#old-b', c: '#k#old-c' } });
    const next = obj({ url: 'v', secureJsonData: { a: 'new', b: '' } });
    sealSecureValues(kind, next, stored, seal);
    expect(next.spec).toEqual({ url: 'v', secureJsonData: { a: seal('new'), c: '#k#old-c' } });
    const none = obj({ url: 'v' });
    sealSecureValues(kind, none, stored, seal);
    expect((none.spec as { secureJsonData: object }).secureJsonData).toEqual(stored.spec && (stored.spec as { secureJsonData: object }).secureJsonData);
    const emptied = obj({ url: 'v', secureJsonData: { a: '', b: '', c: '' } });
    sealSecureValues(kind, emptied, stored, seal);
    expect(emptied.spec).toEqual({ url: 'v' });
  });

  it('a value to seal without an encrypter is an error, not a clear value stored', () => {
    expect(() => sealSecureValues(kind, obj({ secureJsonData: { a: 'x' } }), undefined, undefined)).toThrow(/no encryption/);
  });

  it('presents the keys set, never a value, without touching the stored object it was made from', () => {
    const storedSpec = { url: 'u', secureJsonData: { a: '#k#x', b: '#k#y' } };
    const out = { ...obj(storedSpec) };
    presentSecureValues(kind, out);
    expect(out.spec).toEqual({ url: 'u', secureJsonFields: { a: true, b: true } });
    expect(storedSpec.secureJsonData).toEqual({ a: '#k#x', b: '#k#y' });
    const none = obj({ url: 'u' });
    presentSecureValues(kind, none);
    expect(none.spec).toEqual({ url: 'u', secureJsonFields: {} });
  });

  it('ignores the reported map on input and refuses maps that are not of strings, showing no value', () => {
    const input = obj({ url: 'u', secureJsonFields: { a: true } });
    dropReported(kind, input);
    expect(input.spec).toEqual({ url: 'u' });
    expect(secureValueCauses(kind, obj({ secureJsonData: { a: 5 } }))).toEqual([{ field: 'spec.secureJsonData.a', message: 'Invalid value: must be a string' }]);
    expect(secureValueCauses(kind, obj({ secureJsonData: 'x' }))).toEqual([{ field: 'spec.secureJsonData', message: 'Invalid value: must be an object of strings' }]);
  });

  it('history records the keys with "" for each value', () => {
    expect(historyValueOf(kind, { spec: { url: 'u', secureJsonData: { a: '#k#x' } } })).toEqual({ spec: { url: 'u', secureJsonData: { a: '' } } });
  });

  it('recrypts each stored value, and says when none changed', async () => {
    const value = { spec: { secureJsonData: { a: '#k1#x', b: '#k2#y' } } };
    const next = await recryptedValue(kind, value, async (c) => c.replace('#k1#', '#k2#'));
    expect(next).toEqual({ value: { spec: { secureJsonData: { a: '#k2#x', b: '#k2#y' } } }, rewritten: 1 });
    expect(value.spec.secureJsonData.a).toBe('#k1#x');
    expect(await recryptedValue(kind, next!.value, async (c) => c)).toBeUndefined();
  });
});
