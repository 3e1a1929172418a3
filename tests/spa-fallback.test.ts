import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true' });
});
afterAll(async () => {
  await t?.close();
});

describe('serving the web app', () => {
  it.each(['/', '/car/3', '/dashboard', '/verify-email?token=abc', '/some/unknown/page'])('answers %s with the app HTML', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves the built assets the HTML refers to', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const res = await t.app.inject({ method: 'GET', url: script! });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it.each(['/api/nope', '/api/cars/1/nope', '/docs/nope.js', '/assets/missing.js'])('never falls back for %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('does not fall back for writes to unknown paths', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/car/3', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});
