import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('saved-search alert settings', () => {
  it('defaults to matching 5 s after a change and digests at 08:00 UTC', () => {
    const config = loadConfig({});
    expect(config.alerts).toEqual({ digestHourUtc: 8, matchDelaySeconds: 5 });
  });

  it.each(['0', '51', '3600', '1.5'])('refuses ALERT_MATCH_DELAY_SECONDS=%s, which would break "gone cars alert nobody" or "within a minute"', (value) => {
    expect(() => loadConfig({ ALERT_MATCH_DELAY_SECONDS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ALERT_MATCH_DELAY_SECONDS: value })).toThrow(/ALERT_MATCH_DELAY_SECONDS must be a whole number from 1 to 50/);
  });

  it.each([['1', 1], ['50', 50]])('takes ALERT_MATCH_DELAY_SECONDS=%s', (value, seconds) => {
    expect(loadConfig({ ALERT_MATCH_DELAY_SECONDS: value }).alerts.matchDelaySeconds).toBe(seconds);
  });
});

describe('refusing invalid settings', () => {
  const base = { DATA_DIR: '/tmp', JWT_SECRET: 'config-test-secret-0123456789abcdefghij' };
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    throw new Error('the settings were taken');
  };

  it('names every invalid value at once, each in its own terms', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DB_POOL_SIZE: '0',
      JOB_POLL_SECONDS: '0.1',
      SERVE_CLIENT: 'maybe',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://db/luxe',
      REDIS_URL: 'not a url',
      ALLOWED_ORIGINS: 'https://ok.example.com, https://admin.example.com/path',
      REDIS_PREFIX: 'with space',
      SOCKET_TRANSPORTS: 'carrier-pigeon',
      S3_REGION: 'eu-west-1',
    });
    expect(problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "eighty")',
      'ALLOWED_ORIGINS entry "https://admin.example.com/path" must be a bare origin like https://example.com',
      'DATABASE_URL must use postgres: or postgresql: (got "mysql:")',
      'DB_POOL_SIZE must be a whole number from 1 to 200 (got "0")',
      'REDIS_URL is not a valid URL',
      'SERVE_CLIENT must be true or false (got "maybe")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'REDIS_PREFIX must be at most 50 letters, digits, dots, dashes and underscores (got "with space")',
      'SOCKET_TRANSPORTS must be "websocket" or "websocket,polling" (got "carrier-pigeon")',
      'JOB_POLL_SECONDS must be a number from 0.5 to 60 (got "0.1")',
      'S3_REGION is set but S3_BUCKET is not',
    ]);
    const message = (() => {
      try {
        loadConfig({ ...base, PORT: 'eighty', WEB_CONCURRENCY: '3' });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^Invalid configuration:\n {2}- PORT must be a whole number.*\n {2}- WEB_CONCURRENCY=3 needs DATABASE_URL/);
  });

  it('reads numbers as written, not as JavaScript would', () => {
    for (const value of ['1e3', '0x10', '+5', '-1', '5.0']) expect(problemsOf({ MAIL_RETRY_SECONDS: value })).toEqual([`MAIL_RETRY_SECONDS must be a whole number from 1 to 3600 (got "${value}")`]);
    expect(loadConfig({ ...base, MAIL_RETRY_SECONDS: ' 30 ' }).mailRetrySeconds).toBe(30);
  });

  it('takes yes/no, on/off and 1/0 for switches, and an empty value as unset', () => {
    const config = loadConfig({ ...base, SERVE_CLIENT: 'No', API_COMPRESSION: 'OFF', LOG_PRETTY: '1', PORT: '', LOG_LEVEL: '  ' });
    expect([config.serveClient, config.apiCompression, config.logPretty, config.port, config.logLevel]).toEqual([false, false, true, 3000, 'info']);
  });

  it('never repeats a secret in its complaint', () => {
    expect(problemsOf({ JWT_SECRET: 'hunter2' })).toEqual(['JWT_SECRET must be at least 32 characters']);
  });

  it('joins through one Redis or a Redis Cluster, never both', () => {
    expect(loadConfig({ ...base, REDIS_CLUSTER_NODES: 'redis-a:7000, redis-b:7001' }).redisClusterNodes).toEqual([
      { host: 'redis-a', port: 7000 },
      { host: 'redis-b', port: 7001 },
    ]);
    expect(loadConfig({ ...base, REDIS_URL: 'redis://127.0.0.1:6379' }).redisClusterNodes).toBeNull();
    expect(problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: 'redis-a:7000' })).toEqual([
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis or REDIS_CLUSTER_NODES for a Redis Cluster, not both.',
    ]);
    expect(problemsOf({ REDIS_CLUSTER_NODES: 'redis-a' })[0]).toMatch(/^REDIS_CLUSTER_NODES must be comma-separated host:port pairs/);
  });
});
