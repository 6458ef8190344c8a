import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from './config';
import { ConfigError } from './config.error';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      databaseUrl: null,
      databaseReadUrls: [],
      redisUrl: null,
      hashBudgetBytes: 524_288_000,
      pictureMemoryBytes: 64 * 1024 * 1024,
      pictureMemoryBytesPerUser: 32 * 1024 * 1024,
      pictureWaitMs: 30_000,
      initToken: null,
      logLevel: 'info',
      migrateOnStart: true,
      embeddedAnalyzeIntervalMs: 60_000,
      embeddedSharedBuffersMb: null,
      responseCacheTtlSeconds: 30,
      responseCacheMemoryMb: 16,
      trustProxy: ['loopback'],
      rateLimitIpv6PrefixBits: 64,
      httpRequestTimeoutMs: 60_000,
      httpHeadersTimeoutMs: 15_000,
      httpKeepAliveTimeoutMs: 65_000,
      idleCollectIntervalMs: 10_000,
      metricsToken: null,
      shutdownGraceMs: 25_000,
    });
    expect(config.forges.map((f) => f.name)).toEqual(['github', 'gitlab', 'codeberg']);
    expect(config.keyEncryptionKey).toHaveLength(32);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads exactly the variables it declares, and declares each once, so the configuration reference lists what is read', () => {
    const asked: string[] = [];
    const watched = new Proxy({}, { get: (_, name) => void asked.push(String(name)) });
    loadConfig(watched);
    expect(new Set(asked)).toEqual(new Set(CONFIG_VARIABLES));
    expect(new Set(CONFIG_VARIABLES).size).toBe(CONFIG_VARIABLES.length);
  });

  it('derives BASE_URL from PORT and reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/registry',
      REDIS_URL: 'redis://cache:6379',
      HASH_BUDGET_BYTES: '1024',
      FETCH_ALLOW_HOSTS: 'forge.internal:8443, Mirror.local',
      MIGRATE_ON_START: '0',
      LOG_LEVEL: 'debug',
      EMBEDDED_ANALYZE_INTERVAL_MS: '200',
    });
    expect(config.baseUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBe('postgres://u@db:5432/registry');
    expect(config.redisUrl).toBe('redis://cache:6379');
    expect(config.hashBudgetBytes).toBe(1024);
    expect(config.fetchAllowHosts).toEqual(['forge.internal:8443', 'mirror.local']);
    expect(config.migrateOnStart).toBe(false);
    expect(config.embeddedAnalyzeIntervalMs).toBe(200);
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        BASE_URL: 'ftp://x',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'http://x',
        KEY_ENCRYPTION_KEY: 'short',
        HASH_BUDGET_BYTES: '-5',
        FORGES: '[{"name":"Bad Name","type":"svn","webUrl":"x","apiUrl":"https://a"}]',
        FETCH_ALLOW_HOSTS: 'ok.host,not a host',
        LOG_LEVEL: 'loud',
        MIGRATE_ON_START: 'maybe',
        NODE_ENV: 'staging',
        EMBEDDED_ANALYZE_INTERVAL_MS: '50',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = new Set((error as ConfigError).problems.map((p) => p.variable));
    expect([...variables].sort()).toEqual(
      [
        'BASE_URL',
        'DATABASE_URL',
        'EMBEDDED_ANALYZE_INTERVAL_MS',
        'FETCH_ALLOW_HOSTS',
        'FORGES',
        'HASH_BUDGET_BYTES',
        'KEY_ENCRYPTION_KEY',
        'LOG_LEVEL',
        'MIGRATE_ON_START',
        'NODE_ENV',
        'PORT',
        'REDIS_URL',
      ].sort(),
    );
    expect((error as Error).message).not.toMatch(/short/);
  });

  it('reads MIRROR_OF as an http(s) URL without a trailing slash, credentials, query or fragment', () => {
    expect(loadConfig({ MIRROR_OF: 'https://up.example/registry/' }).mirrorOf).toBe('https://up.example/registry');
    for (const bad of ['ftp://up.example', 'https://user:secret@up.example', 'https://up.example/?token=x', 'https://up.example/#here']) {
      expect(() => loadConfig({ MIRROR_OF: bad })).toThrow(/MIRROR_OF/);
    }
    try {
      loadConfig({ MIRROR_OF: 'https://user:secret@up.example' });
    } catch (error) {
      expect(String(error)).not.toContain('secret');
    }
  });

  it('reads DATABASE_READ_URLS as a comma list of postgres URLs beside DATABASE_URL only', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db/r', DATABASE_READ_URLS: 'postgres://u@r1/r, postgresql://u@r2/r,' });
    expect(config.databaseReadUrls).toEqual(['postgres://u@r1/r', 'postgresql://u@r2/r']);
    expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://u@r1/r' })).toThrow(/DATABASE_READ_URLS.*needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db/r', DATABASE_READ_URLS: 'postgres://u@r1/r,mysql://x' })).toThrow(
      /DATABASE_READ_URLS/,
    );
  });

  it('reads DATABASE_READ_PROBE_INTERVAL_MS (10 s by default) within what a timer can hold', () => {
    expect(loadConfig({}).databaseReadProbeIntervalMs).toBe(10_000);
    expect(loadConfig({ DATABASE_READ_PROBE_INTERVAL_MS: '250' }).databaseReadProbeIntervalMs).toBe(250);
    for (const value of ['99', '3600001', '1e4', '10s', '-1']) {
      expect(() => loadConfig({ DATABASE_READ_PROBE_INTERVAL_MS: value })).toThrow(/DATABASE_READ_PROBE_INTERVAL_MS/);
    }
  });

  it('bounds EMBEDDED_ANALYZE_INTERVAL_MS to what a timer can hold', () => {
    for (const value of ['99', '86400001', '1e5', '60s', '-1']) {
      expect(() => loadConfig({ EMBEDDED_ANALYZE_INTERVAL_MS: value })).toThrow(/EMBEDDED_ANALYZE_INTERVAL_MS/);
    }
    expect(loadConfig({ EMBEDDED_ANALYZE_INTERVAL_MS: '86400000' }).embeddedAnalyzeIntervalMs).toBe(86_400_000);
  });

  it('sizes the in-memory response cache by store, and bounds RESPONSE_CACHE_MEMORY_MB', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/registry' }).responseCacheMemoryMb).toBe(64);
    expect(loadConfig({ RESPONSE_CACHE_MEMORY_MB: '128' }).responseCacheMemoryMb).toBe(128);
    for (const value of ['0', '4097', '16MB', '-1']) {
      expect(() => loadConfig({ RESPONSE_CACHE_MEMORY_MB: value })).toThrow(/RESPONSE_CACHE_MEMORY_MB/);
    }
  });

  it('bounds EMBEDDED_SHARED_BUFFERS_MB to whole MiB from 1 to 4096', () => {
    for (const value of ['0', '4097', '16MB', '1.5', '-1']) {
      expect(() => loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: value })).toThrow(/EMBEDDED_SHARED_BUFFERS_MB/);
    }
    expect(loadConfig({ EMBEDDED_SHARED_BUFFERS_MB: '128' }).embeddedSharedBuffersMb).toBe(128);
  });

  it('reads TRUST_PROXY as a flag, a hop count or a list of addresses, CIDRs and range names', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
    ]);
    for (const value of ['10.0.0.0/33', 'proxy.internal', '33', '10.0.0.1/8/2']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });

  it('bounds the timeouts and requires a long metrics token', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '999' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '999' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: '129' })).toThrow(/RATE_LIMIT_IPV6_PREFIX/);
    expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: '/64' })).toThrow(/RATE_LIMIT_IPV6_PREFIX/);
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '48' }).rateLimitIpv6PrefixBits).toBe(48);
    // The headers' time is part of the whole request's: never longer than it.
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).httpHeadersTimeoutMs).toBe(5_000);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '120000' })).toMatchObject({
      httpHeadersTimeoutMs: 2_000,
      httpKeepAliveTimeoutMs: 120_000,
    });
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '600001' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ WEBHOOK_LEASE_MS: '999' })).toThrow(/WEBHOOK_LEASE_MS/);
    expect(loadConfig({ WEBHOOK_LEASE_MS: '3000' }).webhookLeaseMs).toBe(3_000);
    expect(loadConfig({}).webhookLeaseMs).toBe(60_000);
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token', SHUTDOWN_GRACE_MS: '0' })).toMatchObject({
      metricsToken: 'a-long-enough-metrics-token',
      shutdownGraceMs: 0,
    });
  });

  it('requires real secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET[\s\S]*KEY_ENCRYPTION_KEY/);
  });

  it('keeps generated development secrets in DATA_DIR across restarts', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-config-'));
    try {
      const first = loadConfig({ DATA_DIR: dataDir }, { persistSecrets: true });
      const second = loadConfig({ DATA_DIR: dataDir }, { persistSecrets: true });
      expect(second.sessionSecret).toBe(first.sessionSecret);
      expect(second.keyEncryptionKey.equals(first.keyEncryptionKey)).toBe(true);
      expect(readFileSync(join(dataDir, 'session-secret'), 'utf8').trim()).toBe(first.sessionSecret);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('parses forge instances, including ones under a path', () => {
    const config = loadConfig({
      FORGES: JSON.stringify([
        {
          name: 'corp',
          type: 'gitlab',
          webUrl: 'https://git.corp/gitlab/',
          apiUrl: 'https://git.corp/gitlab/api/v4',
          clientId: 'a',
          clientSecret: 'b',
        },
      ]),
    });
    expect(config.forges).toEqual([
      {
        name: 'corp',
        type: 'gitlab',
        webUrl: 'https://git.corp/gitlab',
        apiUrl: 'https://git.corp/gitlab/api/v4',
        clientId: 'a',
        clientSecret: 'b',
      },
    ]);
  });

  it('defaults the OIDC issuers of github.com and gitlab.com, takes one per instance, and refuses a shared or bad one', () => {
    expect(loadConfig({}).forges.map((f) => f.oidcIssuer)).toEqual([
      'https://token.actions.githubusercontent.com',
      'https://gitlab.com',
      undefined,
    ]);
    const config = loadConfig({
      BASE_URL: 'https://registry.example',
      FORGES: JSON.stringify([
        { name: 'github', type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com', oidcIssuer: null },
        { name: 'corp', type: 'gitlab', webUrl: 'https://git.corp', apiUrl: 'https://git.corp/api/v4', oidcIssuer: 'https://git.corp/' },
      ]),
    });
    expect(config.forges.map((f) => f.oidcIssuer)).toEqual([undefined, 'https://git.corp']);
    expect(config.oidcAudience).toBe('https://registry.example');
    expect(loadConfig({ OIDC_AUDIENCE: 'registry' }).oidcAudience).toBe('registry');
    const bad = () =>
      loadConfig({
        FORGES: JSON.stringify([
          { name: 'a', type: 'gitlab', webUrl: 'https://a', apiUrl: 'https://a/api/v4', oidcIssuer: 'https://same' },
          { name: 'b', type: 'gitlab', webUrl: 'https://b', apiUrl: 'https://b/api/v4', oidcIssuer: 'https://same' },
          { name: 'c', type: 'gitlab', webUrl: 'https://c', apiUrl: 'https://c/api/v4', oidcIssuer: 'ftp://x' },
        ]),
      });
    expect(bad).toThrow(/used by two instances/);
    expect(bad).toThrow(/oidcIssuer must be an http\(s\) URL/);
  });
});
