import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, publicBaseUrl, videoTools } from '../src/index.ts';

describe('loadConfig', () => {
  it('gives working local defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/hallmark');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.WORKER_CONCURRENCY).toBeGreaterThan(0);
  });

  it('coerces numbers and treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '8080', WORKER_CONCURRENCY: '' });
    expect(config.PORT).toBe(8080);
    expect(config.WORKER_CONCURRENCY).toBeGreaterThan(0);
  });

  it('names the variable when one value is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrowError(/PORT: must be a port number/);
  });

  it('names every wrong variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect([...(error as ConfigError).variables].sort()).toEqual([
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
    ]);
    expect((error as ConfigError).message).toContain('3 variable(s)');
  });
});

describe('cross-variable rules', () => {
  it('requires HALLMARK_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrowError(
      /HALLMARK_SECRET: is required/,
    );
    const generated = 'q8Vt3kZ0pLm2Xw9RbN4cYs7Hd1Jf6GaE5uTiOoKx';
    expect(loadConfig({ NODE_ENV: 'production', HALLMARK_SECRET: generated }).NODE_ENV).toBe(
      'production',
    );
  });

  it.each([
    ['the old compose placeholder', 'change-me-to-32-or-more-random-characters', /placeholder/],
    ['a word from a template', 'my-production-secret-value-for-hallmark', /placeholder/],
    ['a repeated pattern', 'abcabcabcabcabcabcabcabcabcabcabcabc', /distinct characters/],
    ['a short one', 'q8Vt3kZ0pLm2Xw9', /at least 32/],
  ])('refuses %s as HALLMARK_SECRET in production, naming the variable', (_, secret, reason) => {
    const attempt = () => loadConfig({ NODE_ENV: 'production', HALLMARK_SECRET: secret });
    expect(attempt).toThrowError(ConfigError);
    expect(attempt).toThrowError(/HALLMARK_SECRET: /);
    expect(attempt).toThrowError(reason);
    // Development keeps working with whatever is set, so a template runs on a laptop as is.
    if (secret.length >= 32)
      expect(loadConfig({ HALLMARK_SECRET: secret }).NODE_ENV).toBe('development');
  });

  it('takes a C2PA chain alone (the API trusts it), never a key without its chain', () => {
    expect(loadConfig({ C2PA_CERT_CHAIN_PATH: 'chain.pem' }).C2PA_CERT_CHAIN_PATH).toBe(
      'chain.pem',
    );
    expect(() => loadConfig({ C2PA_PRIVATE_KEY_PATH: 'key.pem' })).toThrowError(
      /C2PA_CERT_CHAIN_PATH: is required with C2PA_PRIVATE_KEY_PATH/,
    );
  });

  it('takes a PKCS#11 key with its chain, never beside a key file', () => {
    const uri = 'pkcs11:token=t;object=k?module-path=/usr/lib/softhsm/libsofthsm2.so';
    expect(
      loadConfig({ C2PA_PKCS11_URI: uri, C2PA_CERT_CHAIN_PATH: 'chain.pem' }).C2PA_PKCS11_URI,
    ).toBe(uri);
    expect(() => loadConfig({ C2PA_PKCS11_URI: uri })).toThrowError(
      /C2PA_CERT_CHAIN_PATH: is required with C2PA_PKCS11_URI/,
    );
    expect(() =>
      loadConfig({
        C2PA_PKCS11_URI: uri,
        C2PA_CERT_CHAIN_PATH: 'chain.pem',
        C2PA_PRIVATE_KEY_PATH: 'key.pem',
      }),
    ).toThrowError(/C2PA_PKCS11_URI: and C2PA_PRIVATE_KEY_PATH both name a signing key/);
    expect(() => loadConfig({ C2PA_PKCS11_URI: 'softhsm:key' })).toThrowError(/RFC 7512/);
  });

  it("takes an encrypted key's passphrase from a file or a variable, not both", () => {
    expect(() =>
      loadConfig({
        C2PA_PRIVATE_KEY_PASSPHRASE: 'x',
        C2PA_PRIVATE_KEY_PASSPHRASE_FILE: '/run/secrets/passphrase',
      }),
    ).toThrowError(/C2PA_PRIVATE_KEY_PASSPHRASE: and C2PA_PRIVATE_KEY_PASSPHRASE_FILE both/);
  });

  it("sizes each process's database pool, 10 unless told", () => {
    expect(loadConfig({}).DATABASE_POOL_MAX).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: '40' }).DATABASE_POOL_MAX).toBe(40);
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrowError(/DATABASE_POOL_MAX/);
  });

  it("finds the video mark's ffmpeg and ffprobe at Debian's paths unless told, absolute only", () => {
    expect(videoTools(loadConfig({}))).toEqual({
      ffmpeg: '/usr/bin/ffmpeg',
      ffprobe: '/usr/bin/ffprobe',
    });
    const own = loadConfig({
      HALLMARK_FFMPEG: '/opt/ff/ffmpeg',
      HALLMARK_FFPROBE: '/opt/ff/ffprobe',
    });
    expect(videoTools(own)).toEqual({ ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/opt/ff/ffprobe' });
    expect(() => loadConfig({ HALLMARK_FFMPEG: 'ffmpeg' })).toThrowError(
      /HALLMARK_FFMPEG: must be an absolute path/,
    );
  });

  it('reads the Sentinels as host:port pairs, IPv6 in brackets', () => {
    expect(
      loadConfig({ REDIS_SENTINELS: 'sentinel-1:26379, [::1]:26380' }).REDIS_SENTINELS,
    ).toEqual([
      { host: 'sentinel-1', port: 26379 },
      { host: '::1', port: 26380 },
    ]);
    expect(loadConfig({}).REDIS_SENTINEL_NAME).toBe('mymaster');
    expect(() => loadConfig({ REDIS_SENTINELS: 'sentinel-1' })).toThrowError(
      /REDIS_SENTINELS.*host:port/,
    );
    expect(() =>
      loadConfig({ REDIS_SENTINELS: 'sentinel-1:26379', REDIS_CLUSTER_NODES: 'node-1:6379' }),
    ).toThrowError(/REDIS_CLUSTER_NODES: and REDIS_SENTINELS both say where Redis is/);
  });

  it('serves metrics on a port of their own, never the public one', () => {
    expect(loadConfig({ METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' })).toMatchObject({
      METRICS_PORT: 9464,
      WORKER_METRICS_PORT: 9465,
    });
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrowError(
      /METRICS_PORT: must differ from PORT and ADMIN_PORT/,
    );
    expect(() => loadConfig({ WORKER_METRICS_PORT: '3001' })).toThrowError(
      /WORKER_METRICS_PORT: must differ from PORT and ADMIN_PORT/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrowError(/METRICS_TOKEN/);
  });

  it('requires S3_BUCKET with the s3 storage driver', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrowError(/S3_BUCKET/);
  });

  it('parses boolean flags strictly', () => {
    expect(loadConfig({ S3_FORCE_PATH_STYLE: 'true' }).S3_FORCE_PATH_STYLE).toBe(true);
    expect(() => loadConfig({ S3_FORCE_PATH_STYLE: 'yes please' })).toThrowError(
      /S3_FORCE_PATH_STYLE/,
    );
  });
});

describe('publicBaseUrl', () => {
  it('reads which limits fail closed: a list, none, or an error naming the wrong one', () => {
    expect(loadConfig({}).RATE_LIMIT_FAIL_CLOSED).toEqual(['sign-in', 'key-request']);
    expect(loadConfig({ RATE_LIMIT_FAIL_CLOSED: 'none' }).RATE_LIMIT_FAIL_CLOSED).toEqual([]);
    expect(
      loadConfig({ RATE_LIMIT_FAIL_CLOSED: 'sign-in, anonymous' }).RATE_LIMIT_FAIL_CLOSED,
    ).toEqual(['sign-in', 'anonymous']);
    expect(() => loadConfig({ RATE_LIMIT_FAIL_CLOSED: 'sign-in,everything' })).toThrowError(
      /RATE_LIMIT_FAIL_CLOSED/,
    );
  });

  it('points at the host and port the API listens on by default', () => {
    expect(publicBaseUrl(loadConfig({ PORT: '4100' }))).toBe('http://127.0.0.1:4100');
    expect(publicBaseUrl(loadConfig({ HOST: '0.0.0.0' }))).toBe('http://127.0.0.1:3000');
  });

  it('uses PUBLIC_URL when set, without a trailing slash', () => {
    expect(publicBaseUrl(loadConfig({ PUBLIC_URL: 'https://hallmark.example.com/' }))).toBe(
      'https://hallmark.example.com',
    );
  });
});

describe('infra/.env.example', () => {
  const lines = readFileSync(join(import.meta.dirname, '../../../infra/.env.example'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const listed = new Map(
    lines.map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)] as const;
    }),
  );

  it('lists every configuration variable', () => {
    for (const variable of Object.keys(configSchema.shape)) {
      expect(listed.has(variable), `${variable} missing from .env.example`).toBe(true);
    }
  });

  it('shows the real default of each variable that has a fixed one', () => {
    const defaults = loadConfig({});
    for (const [variable, value] of listed) {
      if (value === '' || !(variable in defaults)) continue;
      expect(String(defaults[variable as keyof typeof defaults]), variable).toBe(value);
    }
  });
});
