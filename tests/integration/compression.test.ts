import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIST } from '../../server/src/plugins/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Needs the built web app (the test setup builds it when missing or stale).
let t: TestApp;
let script: string;
let stylesheet: string;
beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true' });
  // A page drawn in the browser names the app's entry module and stylesheet directly.
  const html = (await t.app.inject({ method: 'GET', url: '/login' })).body;
  script = /<script[^>]+src="([^"]+\.js)"/.exec(html)![1]!;
  stylesheet = /<link[^>]+href="([^"]+\.css)"/.exec(html)![1]!;
});
afterAll(async () => {
  await t?.close();
});

const onDisk = (url: string) => readFileSync(join(CLIENT_DIST, url));
const varies = (vary: unknown) => String(vary).toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

describe('compressed web app assets', () => {
  const ENCODINGS = [
    {
      name: 'sends brotli to a browser that accepts it, the same bytes once decoded',
      asset: () => script,
      accept: 'gzip, deflate, br',
      encoding: 'br',
      type: 'javascript',
      decode: (bytes: Buffer) => brotliDecompressSync(bytes),
      maxShareOfFile: 1 / 2,
    },
    { name: 'sends gzip to a client that accepts only gzip', asset: () => stylesheet, accept: 'gzip', encoding: 'gzip', type: 'text/css', decode: (bytes: Buffer) => gunzipSync(bytes) },
    { name: 'sends the file as it is to a client that asks for no encoding', asset: () => script, type: 'javascript', decode: (bytes: Buffer) => bytes },
  ];

  it.each(ENCODINGS)('$name', async ({ asset, accept, encoding, type, decode, maxShareOfFile }) => {
    const url = asset();
    const res = await t.app.inject({ method: 'GET', url, headers: accept ? { 'accept-encoding': accept } : {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toContain(type);
    expect(varies(res.headers.vary)).toBe(true);
    expect(res.headers['cache-control']).toContain('immutable');
    if (maxShareOfFile) expect(res.rawPayload.length).toBeLessThan(onDisk(url).length * maxShareOfFile);
    expect(decode(res.rawPayload).equals(onDisk(url))).toBe(true);
  });

  it('never serves the compressed copies under their own names', async () => {
    for (const url of [`${script}.br`, `${script}.gz`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('keeps the HTML revalidated on every visit', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    // Above 1 KB the HTML may arrive compressed; either way it names the current script.
    const html = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
    expect(html).toContain(script);
  });
});

describe('compressed pages', () => {
  it('gzips a car page drawn on the server for a client that accepts it, the same markup once decoded', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/car/1' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const res = await t.app.inject({ method: 'GET', url: '/car/1', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    // The same page, but for the server's clock in the data handed to the app.
    const markup = (html: string) => html.replace(/<script type="application\/json" id="page-data">.*?<\/script>/s, '');
    expect(markup(gunzipSync(res.rawPayload).toString())).toBe(markup(plain.body));
  });
});

describe('compressed API answers', () => {
  it('gzips a listing page for a client that accepts it, the same JSON once decoded', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/cars' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const res = await t.app.inject({ method: 'GET', url: '/api/cars', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(varies(res.headers.vary)).toBe(true);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(plain.json());
  });

  it('answers brotli to a client that accepts only brotli', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cars', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString()).data.cars.length).toBeGreaterThan(0);
  });

  it('leaves small answers as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().data).toHaveProperty('status');
  });

  it('does not inflate compressed request bodies', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'someone@example.com', password: 'whatever-it-is' })),
    });
    // Read as it came (not JSON), never as the sign-in attempt it would inflate to (401).
    expect(res.statusCode, res.body).toBe(400);
  });
});
