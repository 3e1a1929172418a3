import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { createListing } from '../helpers/escrow.ts';
import { connectSocket, waitUntil } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let user: SignedInUser;

beforeAll(async () => {
  t = await startTestApp({ SERVE_CLIENT: 'true', TRUST_PROXY: 'true' });
  user = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  const csp = (value: string | undefined) => Object.fromEntries((value ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

  it('serve the web app under a strict Content-Security-Policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    const policy = csp(res.headers['content-security-policy'] as string);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    // No inline script to run: a script element either loads a file or is a data block (the
    // page's data, JSON-LD), which browsers never execute.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/(?:ld\+)?json")[^>]*>/);
    expect(res.body).toContain('<script type="application/json" id="page-data">');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('send HSTS for a year when the request came over HTTPS through the proxy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('never let caches keep API answers (tokens, personal data)', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'Sup3r$ecret!' } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth })).headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: user.auth })).headers['cache-control']).toBe('no-store');
    // Immutable files keep their long cache.
    const image = (await t.app.inject({ method: 'GET', url: '/api/cars?limit=1' })).json().data.cars[0].primary_image;
    expect((await t.app.inject({ method: 'GET', url: image })).headers['cache-control']).toContain('immutable');
  });

  it('give the API documentation a policy of its own', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('input at the edge', () => {
  it('refuses the NUL character in any text with a 400', async () => {
    const profile = await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: user.auth, payload: { bio: 'Collector\u0000' } });
    expect([profile.statusCode, profile.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(profile.json().details).toEqual([{ field: 'bio', message: 'bio must not contain the NUL character' }]);
    const search = await t.app.inject({ method: 'GET', url: '/api/cars?search=por%00sche' });
    expect([search.statusCode, search.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    const nested = await t.app.inject({ method: 'POST', url: '/api/cars', headers: user.auth, payload: { features: ['ok', 'bad\u0000'] } });
    expect(nested.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: user.auth })).json().data.bio).toBeNull();
  });

  it.each([1e20, 1e308, 2_147_483_648, -1, 1.5, '1'])('refuses carId %s in a body with a 400', async (carId) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/bids', headers: user.auth, payload: { carId, amount: 1_000 } });
    expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it.each(['99999999999999999999', '2147483648', '0', '-5', '1e3', 'NaN', '%00'])('answers 404 for the path id %s', async (id) => {
    expect((await t.app.inject({ method: 'GET', url: `/api/cars/${id}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: user.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/support/tickets/${id}`, headers: user.auth })).statusCode).toBe(404);
  });

  it.each([' ', '--edge\r\n', '--edge\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n'])('answers a cut-short photo upload %j with a 400', async (body) => {
    const car = await createListing(t, user);
    const res = await t.app.inject({ method: 'POST', url: `/api/cars/${car.id}/images`, headers: { ...user.auth, 'content-type': 'multipart/form-data; boundary=edge' }, payload: body });
    expect([res.statusCode, res.json().code]).toEqual([400, 'INVALID_BODY']);
  });

  it('caps body size, strings and arrays the route leaves open', async () => {
    const big = await t.app.inject({ method: 'POST', url: '/api/chat', headers: { ...user.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ carId: 1, message: 'x'.repeat(200_000) }) });
    expect([big.statusCode, big.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const body = doc.paths['/api/bids'].post.requestBody.content['application/json'].schema;
    expect(body.properties.carId.maximum).toBe(2_147_483_647);
  });
});

const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres) console.log('[hardening] database outage case skipped: the embedded database cannot become unreachable; it runs on PostgreSQL.');

/** A TCP relay in front of PostgreSQL that can be cut, as if the database went away, and restored. */
class Relay {
  private server: Server | null = null;
  private readonly links = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}
  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.links.add(socket);
        socket.on('close', () => this.links.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  async cut(): Promise<void> {
    for (const socket of this.links) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

describe.skipIf(!onPostgres)('when the database goes away', () => {
  let database: TestDatabase;
  let relay: Relay;
  let relayed: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url!);
    relay = new Relay(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
    await relay.open();
    const viaRelay = new URL(database.url!);
    viaRelay.host = `127.0.0.1:${relay.port}`;
    // The app's own connections go through the relay.
    relayed = { ...(await openDatabase({ databaseUrl: viaRelay.toString(), dataDir: 'memory://' })), url: viaRelay.toString() };
    app = await startTestApp({ JOB_POLL_SECONDS: '0.5' }, relayed);
    await app.listen();
  });
  afterAll(async () => {
    await app?.close();
    await relayed?.close();
    await relay?.cut();
    await database?.close();
  });

  it('answers 503 with Retry-After within 2 s, keeps sockets, and serves again by itself once it is back', async () => {
    const viewer = await connectSocket(app.url);
    expect((await fetch(`${app.url}/api/cars`)).status).toBe(200);
    await relay.cut();
    for (const path of ['/api/cars', '/api/cars/1', '/api/health']) {
      const started = Date.now();
      const res = await fetch(`${app.url}${path}`);
      expect(Date.now() - started, path).toBeLessThan(2_500);
      expect(res.status, path).toBe(503);
      const body = (await res.json()) as { code: string; error: string };
      if (path !== '/api/health') {
        expect(body.code).toBe('SERVICE_UNAVAILABLE');
        expect(res.headers.get('retry-after')).toBe('2');
      }
      expect(JSON.stringify(body)).not.toMatch(/ECONN|127\.0\.0\.1|stack/);
    }
    expect(viewer.connected).toBe(true);
    await relay.open();
    const back = Date.now();
    await waitUntil(async () => (await fetch(`${app.url}/api/cars`)).status === 200, 5_000, 'service to resume');
    expect(Date.now() - back).toBeLessThan(5_000);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect(viewer.connected).toBe(true);
    viewer.close();
  }, 30_000);
});
