import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('metrics settings', () => {
  let secured: TestApp;
  let disabled: TestApp;
  beforeAll(async () => {
    secured = await startTestApp({ METRICS_TOKEN: 'scrape-secret' });
    disabled = await startTestApp({ METRICS: 'false' }, secured.database);
  });
  afterAll(async () => {
    await disabled?.close();
    await secured?.close();
  });

  it('requires the token when one is configured', async () => {
    expect((await secured.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await secured.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-secret!' } })).statusCode).toBe(401);
    const ok = await secured.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('process_resident_memory_bytes');
  });

  it('serves nothing when disabled', async () => {
    expect((await disabled.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('keeps metrics off the public surface in production unless a token is set', async () => {
    const { loadConfig } = await import('../../server/src/config.ts');
    const base = { DATA_DIR: secured.config.dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).metrics).toEqual({ enabled: false, token: null });
    expect(loadConfig({ ...base, NODE_ENV: 'production', METRICS_TOKEN: 'scrape' }).metrics).toEqual({ enabled: true, token: 'scrape' });
    expect(loadConfig({ ...base }).metrics.enabled).toBe(true);
    const production = await startTestApp({ NODE_ENV: 'production' }, secured.database);
    expect((await production.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await production.close();
  });
});
