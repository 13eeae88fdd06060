import type { DataSourceInstance } from '../types';
import { applicationName, parseHostPort, postgresSettings } from './postgres-settings';

const ds = (over: Partial<DataSourceInstance> = {}): DataSourceInstance => ({
  namespace: 'org-2',
  uid: 'pg',
  id: 1,
  name: 'PG',
  type: 'postgres',
  url: 'db.internal:6432',
  user: 'grafana',
  database: 'metrics',
  basicAuth: false,
  basicAuthUser: '',
  withCredentials: false,
  jsonData: {},
  secure: { password: 's3cret' },
  resourceVersion: '7',
  ...over,
});

describe('the data source URL', () => {
  it.each([
    ['db:6432', { host: 'db', port: 6432 }],
    ['db', { host: 'db', port: 5432 }],
    ['127.0.0.1:5432', { host: '127.0.0.1', port: 5432 }],
    ['[::1]:5433', { host: '::1', port: 5433 }],
    ['[::1]', { host: '::1', port: 5432 }],
    ['/var/run/postgresql', { host: '/var/run/postgresql', port: 5432 }],
    ['postgres://db:5000/x', { host: 'db', port: 5000 }],
    ['', { host: 'localhost', port: 5432 }],
  ])('%j', (url, hostPort) => expect(parseHostPort(url)).toEqual(hostPort));
});

describe('pool settings', () => {
  it('database from the record, else jsonData.database; the password as a function (never the server’s PGPASSWORD)', async () => {
    const s = postgresSettings(ds());
    expect(s.pool).toMatchObject({ host: 'db.internal', port: 6432, user: 'grafana', database: 'metrics', max: 5, application_name: 'svc-ds org-2/pg' });
    expect(await (s.pool.password as () => Promise<string>)()).toBe('s3cret');
    expect(postgresSettings(ds({ database: '', jsonData: { database: 'other' } })).pool.database).toBe('other');
    expect(await (postgresSettings(ds({ secure: {} })).pool.password as () => Promise<string>)()).toBe('');
    expect(JSON.stringify(s.pool)).not.toContain('s3cret');
  });

  it.each([
    [undefined, { rejectUnauthorized: true }],
    ['verify-full', { rejectUnauthorized: true }],
    ['require', { rejectUnauthorized: false }],
    ['disable', false],
    ['prefer', false],
    ['nonsense', { rejectUnauthorized: true }],
  ])('sslmode %s', (sslmode, ssl) => {
    const s = postgresSettings(ds({ jsonData: sslmode === undefined ? {} : { sslmode } }));
    if (ssl === false) expect(s.pool.ssl).toBe(false);
    else expect(s.pool.ssl).toMatchObject(ssl);
  });

  it('maxOpenConns (number or numeric text) within 1..100; timeout seconds; timescaledb', () => {
    expect(postgresSettings(ds({ jsonData: { maxOpenConns: 2 } })).pool.max).toBe(2);
    expect(postgresSettings(ds({ jsonData: { maxOpenConns: '3' } })).pool.max).toBe(3);
    expect(postgresSettings(ds({ jsonData: { maxOpenConns: 100000 } })).pool.max).toBe(100);
    expect(postgresSettings(ds({ jsonData: { maxOpenConns: -1 } })).pool.max).toBe(5);
    expect(postgresSettings(ds({ jsonData: { timeout: '2.5' } })).timeoutMs).toBe(2500);
    expect(postgresSettings(ds()).timeoutMs).toBe(30_000);
    expect(postgresSettings(ds({ jsonData: { timescaledb: true } })).timescaledb).toBe(true);
  });

  it('one application name per data source, at most 63 characters (PostgreSQL’s limit)', () => {
    expect(applicationName({ namespace: 'default', uid: 'x'.repeat(80) })).toHaveLength(63);
  });
});
