import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CLIENT_DIST } from '../../server/src/plugins/client.ts';
import { SCREEN_MODULES } from '../../server/src/lib/page-preloads.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true' });
});
afterAll(async () => {
  await t?.close();
});

describe('serving the web app', () => {
  it.each(['/', '/car/3', '/dashboard', '/verify-email?token=abc'])('answers %s with the app HTML', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('answers a path no page takes with 404 and the app showing its not-found page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/some/unknown/page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
    expect(res.body).toMatch(/<h1[^>]*>Page not found<\/h1>/);
  });

  it.each(['/admin', '/admin/audit'])("answers the console's %s with 404, as an unknown address, and the app that opens it for staff", async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves the built assets the HTML refers to', async () => {
    // A page drawn in the browser names the app's entry module directly.
    const html = (await t.app.inject({ method: 'GET', url: '/login' })).body;
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

describe("announcing what a page needs in its HTML", () => {
  const preloads = (html: string, kind: string) => [...html.matchAll(new RegExp(`<link rel="${kind}"[^>]*href="([^"]+)"`, 'g'))].map((m) => m[1]!);

  it('knows every screen it announces from the build (the router and this list agree)', () => {
    const manifest = JSON.parse(readFileSync(`${CLIENT_DIST}/.vite/manifest.json`, 'utf8')) as Record<string, unknown>;
    for (const module of Object.values(SCREEN_MODULES)) expect(Object.keys(manifest), module).toContain(module);
  });

  it("asks for a car page's first image ahead of the app's code, which starts once the page is painted", async () => {
    const car = (await t.app.inject({ method: 'GET', url: '/api/cars/3' })).json().data as { images: string[]; photos: unknown[] };
    const html = (await t.app.inject({ method: 'GET', url: '/car/3' })).body;
    expect(car.photos).toEqual([]);
    const hero = html.indexOf(`<link rel="preload" as="image" fetchpriority="high" href="${car.images[0]}">`);
    const start = html.indexOf('<script defer src="/app-start.js" data-app="/assets/');
    expect(hero).toBeGreaterThan(-1);
    expect(start).toBeGreaterThan(hero);
    expect(preloads(html, 'modulepreload')).toEqual([]);
    const entry = /data-app="([^"]+)"/.exec(html)![1]!;
    for (const href of ['/app-start.js', entry]) expect((await t.app.inject({ method: 'GET', url: href })).statusCode, href).toBe(200);
  });

  it('answers a car that does not exist with 404 and its not-found screen, without an image to fetch', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/car/999999' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/<h1[^>]*>Car Not Found<\/h1>/);
    expect(res.body).toContain('<script defer src="/app-start.js"');
    expect(res.body).not.toContain('as="image"');
  });

  it("announces a page's screen code when the page is drawn in the browser, never what the entry script loads already", async () => {
    const dashboard = (await t.app.inject({ method: 'GET', url: '/dashboard' })).body;
    const entry = /<script[^>]+src="([^"]+\.js)"/.exec(dashboard)?.[1];
    expect(entry).toMatch(/^\/assets\/index-/);
    expect(preloads(dashboard, 'modulepreload')).not.toContain(entry);
    expect(preloads(dashboard, 'modulepreload').some((href) => href.includes('dashboard-screen'))).toBe(true);
    // Drawn on the server, the listing and escrow pages read without the app: nothing announced.
    for (const url of ['/', '/escrow']) expect(preloads((await t.app.inject({ method: 'GET', url })).body, 'modulepreload'), url).toEqual([]);
  });
});

