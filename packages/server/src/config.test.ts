import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8000, host: 'localhost', databaseUrl: undefined, siteVariant: 'portal', smtpUrl: undefined, trustProxy: false });
    expect(config.publicUrl).toBe('http://localhost:8000');
    expect(config.dataDir.endsWith('/var')).toBe(true);
  });

  it('trusts only a number of proxies or their addresses, never every hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16' }).trustProxy).toBe('10.0.0.5,10.1.0.0/16');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
  });

  it('refuses settings it cannot use', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ SITE_VARIANT: 'arctic' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(ConfigError);
  });

  it('reads the OAI-PMH settings: admin address (else the sender, else one at the public host), page size, secret', () => {
    // The defaults' sender, noreply@localhost, fails OAI-PMH's emailType (no dot in its domain).
    expect(loadConfig({}).adminEmail).toBe('noreply@localhost.localdomain');
    expect(loadConfig({ PUBLIC_URL: 'https://data.tpdc.ac.cn/' }).adminEmail).toBe('noreply@data.tpdc.ac.cn');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8000' }).adminEmail).toBe('noreply@[10.0.0.5]');
    expect(loadConfig({ PUBLIC_URL: 'http://[::1]:8000' }).adminEmail).toBe('noreply@localhost.localdomain');
    expect(loadConfig({ MAIL_FROM: 'Data Centre <data@tpdc.example.org>' }).adminEmail).toBe('data@tpdc.example.org');
    expect(loadConfig({ ADMIN_EMAIL: 'oai@tpdc.example.org' }).adminEmail).toBe('oai@tpdc.example.org');
    for (const address of ['oai@localhost', 'oai', 'oai @tpdc.example.org']) {
      expect(() => loadConfig({ ADMIN_EMAIL: address }), address).toThrow(/ADMIN_EMAIL must be an e-mail address with a dot in its domain/);
    }
    // Every default the function gives is valid by the OAI-PMH schema's pattern.
    for (const env of [{}, { PUBLIC_URL: 'http://portal' }, { PUBLIC_URL: 'http://10.0.0.5' }, { PUBLIC_URL: 'http://[::1]' }]) {
      expect(loadConfig(env).adminEmail).toMatch(/^\S+@(\S+\.)+\S+$/);
    }
    expect(loadConfig({}).oaiPageSize).toBe(100);
    expect(loadConfig({ OAI_PAGE_SIZE: '25' }).oaiPageSize).toBe(25);
    expect(() => loadConfig({ OAI_PAGE_SIZE: '0' })).toThrow(ConfigError);
    expect(loadConfig({}).secretKey).toBeUndefined();
    expect(loadConfig({ SECRET_KEY: 'k'.repeat(32) }).secretKey).toBe('k'.repeat(32));
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(ConfigError);
  });

  it('raises or lowers a rate limit by name, keeping its window', () => {
    const config = loadConfig({ RATE_LIMIT_LOGIN: '500', RATE_LIMIT_MAIL: '' });
    expect(config.rateLimits.login).toEqual({ max: 500, timeWindowMs: 60_000 });
    expect(config.rateLimits.mail.max).toBe(10);
    expect(() => loadConfig({ RATE_LIMIT_CAPTCHA: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_REGISTER: 'many' })).toThrow(ConfigError);
  });

  it('reads the token lifetime and the per-account limits, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({ tokenTtlDays: 14, accountLimits: { recordsPerHour: 30, storageBytes: 10240 * 1024 * 1024 } });
    const config = loadConfig({ TOKEN_TTL_DAYS: '7', METADATA_CREATE_PER_HOUR: '5', USER_STORAGE_QUOTA_MB: '100' });
    expect(config).toMatchObject({ tokenTtlDays: 7, accountLimits: { recordsPerHour: 5, storageBytes: 100 * 1024 * 1024 } });
    expect(() => loadConfig({ TOKEN_TTL_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ USER_STORAGE_QUOTA_MB: 'lots' })).toThrow(ConfigError);
  });

  it('takes PUBLIC_URL without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://data.example.org/' }).publicUrl).toBe('https://data.example.org');
  });
});
