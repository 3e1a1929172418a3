import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';

describe('GET /api/health when the database is gone', () => {
  it('answers 503 degraded without leaking the cause', async () => {
    const t = await startTestApp();
    try {
      await t.database.close();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.data).toEqual({ status: 'degraded', db: 'unreachable', redis: 'off', queueMs: expect.any(Number) });
      expect(body.code).toBe('SERVICE_DEGRADED');
      expect(res.body).not.toMatch(/127\.0\.0\.1|localhost|ECONN|stack/i);
    } finally {
      await t.app.close();
    }
  });
});
