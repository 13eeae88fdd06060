import type { KindRegistration } from '../meta';
import { historyValueOf } from './secret-fields';

const kind = (secretFields?: string[]) => ({ secretFields }) as unknown as KindRegistration;

describe('historyValueOf', () => {
  it('drops each secret path, nested ones too, from a copy', () => {
    const value = { metadata: { name: 'ds' }, spec: { url: 'http://x', secureJsonData: { password: 'p' }, basicAuth: { password: 'q', user: 'u' } } };
    expect(historyValueOf(kind(['spec.secureJsonData', 'spec.basicAuth.password']), value)).toEqual({
      metadata: { name: 'ds' },
      spec: { url: 'http://x', basicAuth: { user: 'u' } },
    });
    expect(value.spec.secureJsonData).toEqual({ password: 'p' });
    expect(value.spec.basicAuth.password).toBe('q');
  });

  it('is undefined for a kind without secrets, and leaves a value without the paths as it is', () => {
    expect(historyValueOf(kind(), { spec: { a: 1 } })).toBeUndefined();
    expect(historyValueOf(kind([]), { spec: { a: 1 } })).toBeUndefined();
    expect(historyValueOf(kind(['spec.x.y', 'status.z']), { spec: { a: 1, x: 'not an object' } })).toEqual({ spec: { a: 1, x: 'not an object' } });
  });
});
