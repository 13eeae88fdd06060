import { type DataSourceObject, freeName, parseDataSourceCommand, specOf, toDataSourceDTO, toListItem } from './datasources-conversions';
import { parseAddPermission, permissionIdOf } from './datasource-permissions-conversions';

const stored = (spec: Record<string, unknown>): DataSourceObject =>
  ({
    apiVersion: 'datasource.svc.app/v1beta1',
    kind: 'DataSource',
    metadata: { name: 'prom', namespace: 'default', uid: 'u', resourceVersion: '5', generation: 3, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'svc.app/deprecatedInternalID': '7' } },
    spec: { access: 'proxy', url: '', user: '', database: '', basicAuth: false, basicAuthUser: '', withCredentials: false, isDefault: false, jsonData: null, readOnly: false, ...spec },
  }) as unknown as DataSourceObject;

describe('data source conversions', () => {
  it('round-trips a command through the stored spec and back to the record', () => {
    const cmd = parseDataSourceCommand(
      { name: 'Prom', type: 'prometheus', access: 'proxy', url: 'http://p', user: 'u', database: 'db', basicAuth: true, basicAuthUser: 'b', withCredentials: true, isDefault: true, jsonData: { a: 1 } },
      ['type', 'access'],
    );
    const spec = specOf(cmd);
    const dto = toDataSourceDTO(stored(spec), 1);
    expect(dto).toMatchObject({ ...cmd, id: 7, uid: 'prom', orgId: 1, version: 3, password: '', basicAuthPassword: '', secureJsonFields: {}, readOnly: false });
    // And the record, sent back as a PUT body, writes the same spec.
    expect(specOf(parseDataSourceCommand(dto, ['name', 'type', 'access']))).toEqual(spec);
  });

  it('moves the legacy password fields into secure keys, and never shows a secret', () => {
    const spec = specOf(parseDataSourceCommand({ type: 't', access: 'proxy', password: 'p1', basicAuthPassword: 'p2', secureJsonData: { password: 'kept' } }, []));
    expect(spec.secureJsonData).toEqual({ password: 'kept', basicAuthPassword: 'p2' });
    const dto = toDataSourceDTO(stored({ name: 'x', type: 't', ...spec }), 1);
    expect(dto.secureJsonFields).toEqual({ password: true, basicAuthPassword: true });
    expect(JSON.stringify(dto)).not.toMatch(/p2|kept/);
    expect(toDataSourceDTO(stored({ name: 'x', type: 't', secureJsonFields: { a: true, b: false } }), 1).secureJsonFields).toEqual({ a: true });
  });

  it('binds like the anchor: wrong types and missing required fields are "bad request data"', () => {
    expect(() => parseDataSourceCommand({ type: 't' }, ['type', 'access'])).toThrow('bad request data');
    expect(() => parseDataSourceCommand({ type: 't', access: 'proxy', isDefault: 'yes' }, [])).toThrow('bad request data');
    expect(() => parseDataSourceCommand([1], [])).toThrow('bad request data');
  });

  it('lists with plugin names and the unknown-plugin logo; omits jsonData from records when null', () => {
    expect(toListItem(stored({ name: 'x', type: 'prometheus' }), 1)).toMatchObject({ typeName: 'Prometheus', jsonData: null });
    expect(toListItem(stored({ name: 'x', type: 'acme' }), 1)).toMatchObject({ typeName: '', typeLogoUrl: 'public/img/icn-datasource.svg' });
    expect('jsonData' in toDataSourceDTO(stored({ name: 'x', type: 'acme' }), 1)).toBe(false);
  });

  it('names a nameless data source after its type, the first free one in any case', () => {
    expect(freeName('loki', [])).toBe('loki');
    expect(freeName('loki', ['LOKI', 'loki-1'])).toBe('loki-2');
  });
});

describe('data source permission conversions', () => {
  it('gives each grantee one stable id', () => {
    const id = permissionIdOf({ kind: 'user', uid: 'u1' });
    expect(permissionIdOf({ kind: 'user', uid: 'u1' })).toBe(id);
    expect(permissionIdOf({ kind: 'team', uid: 'u1' })).not.toBe(id);
    expect(id).toBeGreaterThan(0);
  });

  it('reads one grantee and a level from the add command', () => {
    expect(parseAddPermission({ userId: 3, permission: 1 })).toEqual({ userId: 3, permission: 'Query' });
    expect(parseAddPermission({ teamId: '4', permission: '2' })).toEqual({ teamId: 4, permission: 'Edit' });
    expect(parseAddPermission({ builtinRole: 'Viewer', permission: 4 })).toEqual({ builtinRole: 'Viewer', permission: 'Admin' });
    expect(() => parseAddPermission({ userId: 3, teamId: 4, permission: 1 })).toThrow('exactly one');
    expect(() => parseAddPermission({ userId: 3, permission: 3 })).toThrow('permission must be');
  });
});

