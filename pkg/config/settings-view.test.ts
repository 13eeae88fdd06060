import { isSecretSetting, loadConfig, REDACTED, REDACTED_URL_PASSWORD, settingsView } from './index';

describe('settingsView', () => {
  it('lists every section as strings, secrets masked', () => {
    const view = settingsView(loadConfig({ cwd: '/srv', env: { SVC_SECURITY_ADMIN_PASSWORD: 'hunter2', SVC_FEATURE_TOGGLES_ENABLE: 'a,b' } }));
    expect(Object.keys(view)).toEqual(['server', 'database', 'registry', 'security', 'paths', 'feature_toggles', 'dashboards', 'datasources', 'dataproxy', 'snapshots', 'users', 'quota', 'auth', 'auth.anonymous', 'auth.saml', 'enterprise', 'log', 'metrics', 'smtp']);
    expect(view.server!.http_port).toBe('3000');
    expect(view.server!.root_url).toBe('http://localhost:3000/');
    expect(view.paths!.data).toBe('/srv/data');
    expect(view.feature_toggles).toEqual({ nestedFolders: 'true', enable: 'a,b' });
    expect(view.security).toEqual({ admin_user: 'admin', admin_password: REDACTED, admin_email: 'admin@localhost', secret_key: REDACTED, previous_secret_keys: '', data_source_proxy_whitelist: '' });
    expect(REDACTED).toBe('*********');
    const withMetrics = settingsView(loadConfig({ cwd: '/srv', env: { SVC_METRICS_BASIC_AUTH_USERNAME: 'prom', SVC_METRICS_BASIC_AUTH_PASSWORD: 'scrape-pw' } }));
    expect(withMetrics.metrics).toEqual({ enabled: 'true', basic_auth_username: 'prom', basic_auth_password: REDACTED });
    expect(JSON.stringify(view)).not.toContain('hunter2');
    expect(JSON.stringify(view)).not.toContain('SW2YcwTIb9zpOOhoPsMm');
  });

  it('masks only the password part of a URL, as xxxxx', () => {
    const url = (u: string) => settingsView(loadConfig({ env: { SVC_DATABASE_URL: u } })).database!.url;
    expect(url('postgres://svc:pa55@db:5432/svc?sslmode=require')).toBe(`postgres://svc:${REDACTED_URL_PASSWORD}@db:5432/svc?sslmode=require`);
    expect(url('postgresql://db/svc?user=svc&password=pa55')).toBe(`postgresql://db/svc?user=svc&password=${REDACTED_URL_PASSWORD}`);
    expect(url('postgres://svc@db/svc')).toBe('postgres://svc@db/svc');
    expect(url('')).toBe('');
  });

  it('shows durations as a config file holds them', () => {
    expect(settingsView(loadConfig({})).auth).toEqual({ login_cookie_name: 'svc_session', login_maximum_lifetime_duration: '30d', login_maximum_inactive_lifetime_duration: '7d', initial_service_account_token: '' });
    expect(settingsView(loadConfig({ env: { SVC_AUTH_LOGIN_MAXIMUM_INACTIVE_LIFETIME_DURATION: '90m' } })).auth!.login_maximum_inactive_lifetime_duration).toBe('90m');
  });

  it('masks the initial service-account token', () => {
    const key = 'svcsa_aIp1Nq5glqrr7raLXQHmR9AVV1yGWTD3_79091dfb';
    const view = settingsView(loadConfig({ env: { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: key } }));
    expect(view.auth!.initial_service_account_token).toBe(REDACTED);
    expect(JSON.stringify(view)).not.toContain(key);
  });

  it('keeps an empty secret empty', () => {
    expect(settingsView(loadConfig({ env: { SVC_SECURITY_SECRET_KEY: '' } })).security!.secret_key).toBe('');
  });

  it("follows the anchor's rule on the environment name of a setting", () => {
    for (const [section, key] of [['auth.saml', 'private_key'], ['auth.saml', 'certificate'], ['auth.generic_oauth', 'client_secret'], ['grafana_net', 'api_token'], ['smtp', 'password'], ['auth.saml', 'private-key']]) expect(isSecretSetting(section!, key!)).toBe(true);
    for (const [section, key] of [['auth.saml', 'idp_metadata_url'], ['server', 'cert_key'], ['auth', 'login_cookie_name'], ['security', 'admin_user']]) expect(isSecretSetting(section!, key!)).toBe(false);
    const view = settingsView(loadConfig({}), { 'auth.saml': { private_key: 'PEM', idp_metadata_url: 'https://u:p@idp/metadata', certificate: '' } });
    expect(view['auth.saml']).toMatchObject({ private_key: REDACTED, idp_metadata_url: 'https://u:xxxxx@idp/metadata', certificate: '', enabled: 'false', max_issue_delay: '90s' });
  });
});

describe('smtp', () => {
  it("takes the anchor's [smtp] keys with its defaults, and masks the password", () => {
    expect(loadConfig({ env: {} }).smtp).toEqual({ enabled: false, host: 'localhost:25', user: '', password: '', skip_verify: false, from_address: 'admin@svc.localhost', from_name: 'Svc', ehlo_identity: '', startTLS_policy: '' });
    const c = loadConfig({ env: { SVC_SMTP_ENABLED: 'true', SVC_SMTP_HOST: 'mail.example.org:587', SVC_SMTP_PASSWORD: 'hunter2', SVC_SMTP_STARTTLS_POLICY: 'MandatoryStartTLS' } });
    expect(c.smtp).toMatchObject({ enabled: true, host: 'mail.example.org:587', password: 'hunter2', startTLS_policy: 'MandatoryStartTLS' });
    expect(settingsView(c).smtp).toMatchObject({ password: REDACTED, host: 'mail.example.org:587' });
    expect(() => loadConfig({ env: { SVC_SMTP_HOST: 'no-port' } })).toThrow('smtp.host');
    expect(() => loadConfig({ env: { SVC_SMTP_STARTTLS_POLICY: 'Sometimes' } })).toThrow('smtp.startTLS_policy');
  });
});
