import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { freePort } from './app.ts';

/**
 * A local Web Push service for tests and benchmarks: web-push-testing (which checks each push's
 * VAPID signature and decrypts its aes128gcm payload, as a browser's push service and the
 * browser would) behind a small proxy that records every push it is sent and can hold pushes
 * unanswered. The server under test reaches it through PUSH_ENDPOINT_HOSTS_ALLOWED=`host`.
 *
 * A push counts as accepted when the receiver answers it (201): a held push whose sender goes
 * away before it is released was never accepted, and is dropped unseen, as a push service drops
 * a request whose connection died before its answer.
 */

const require = createRequire(import.meta.url);
const WebPushTestingServer = require('web-push-testing/src/server.js') as new (model: unknown, port: number) => { startServer(): void; _server: Server };
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => { notifyUrl: string } };

export interface ReceivedPush {
  /** The device (web-push-testing's client hash) the push was sent to. */
  hash: string;
  headers: IncomingHttpHeaders;
  /** What the receiver answered (201: accepted). */
  status: number;
  /** Date.now() when the receiver had answered. */
  at: number;
}

export interface PushDevice {
  hash: string;
  /** The subscription as a browser's `PushSubscription.toJSON()`, pointing at the proxy. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

interface Held {
  hash: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  res: ServerResponse;
  senderGone: boolean;
}

export class PushReceiver {
  private receiverPort = 0;
  private proxyPort = 0;
  private receiver: { startServer(): void; _server: Server } | null = null;
  private proxy: Server | null = null;
  private holding = false;
  private readonly held: Held[] = [];
  /** Every push the receiver answered, in order. */
  readonly received: ReceivedPush[] = [];
  /** Held pushes whose sender had gone (its connection closed) before they were released. */
  dropped = 0;

  /** `host:port` of the proxy, for PUSH_ENDPOINT_HOSTS_ALLOWED. */
  get host(): string {
    return `127.0.0.1:${this.proxyPort}`;
  }

  async start(): Promise<this> {
    this.receiverPort = await freePort();
    this.proxyPort = await freePort();
    this.receiver = new WebPushTestingServer(new PushApiModel(), this.receiverPort);
    // web-push-testing says "Server running on port …" once it listens: not in the test's output.
    const log = console.log;
    console.log = () => undefined;
    try {
      this.receiver.startServer();
      // Its own callback on 'listening' (which logs) runs before this one.
      await new Promise((resolve) => this.receiver!._server.once('listening', resolve));
    } finally {
      console.log = log;
    }
    this.proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const held: Held = { hash: req.url?.split('/').pop() ?? '', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), res, senderGone: false };
        res.on('close', () => {
          if (!res.writableFinished) held.senderGone = true;
        });
        if (this.holding) this.held.push(held);
        else this.forward(held);
      });
    });
    await new Promise<void>((resolve) => this.proxy!.listen(this.proxyPort, '127.0.0.1', resolve));
    return this;
  }

  private forward(push: Held): void {
    const upstream = httpRequest({ host: '127.0.0.1', port: this.receiverPort, path: push.url, method: 'POST', headers: push.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        this.received.push({ hash: push.hash, headers: push.headers, status: answer.statusCode ?? 0, at: Date.now() });
        if (!push.res.destroyed) push.res.writeHead(answer.statusCode ?? 502).end(Buffer.concat(chunks));
      });
    });
    upstream.on('error', () => push.res.destroy());
    upstream.end(push.body);
  }

  /** From now on, pushes are kept unanswered (and not yet delivered) until `release`. */
  hold(): void {
    this.holding = true;
  }

  /** How many pushes are held right now, their senders still waiting. */
  get waiting(): number {
    return this.held.filter((h) => !h.senderGone).length;
  }

  /**
   * Delivers every held push whose sender still waits, drops the others, and stops holding.
   * A sender that died (a killed process) closed its connections before its parent heard of
   * the death, so they are ready to be read by then: one turn of the event loop takes them in
   * before any held push is judged.
   */
  async release(): Promise<void> {
    this.holding = false;
    await new Promise((resolve) => setImmediate(resolve));
    for (const push of this.held.splice(0)) {
      const socket = push.res.socket;
      if (push.senderGone || push.res.destroyed || !socket || socket.destroyed || socket.readableEnded) this.dropped += 1;
      else this.forward(push);
    }
  }

  private async call<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${this.receiverPort}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`push receiver ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  }

  /** A new device at the receiver for the server's VAPID public key (`GET /api/push/public-key`). */
  async device(publicKey: string): Promise<PushDevice> {
    const sub = await this.call<{ keys: { p256dh: string; auth: string }; clientHash: string }>('/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey });
    return { hash: sub.clientHash, subscription: { endpoint: `http://${this.host}/notify/${sub.clientHash}`, expirationTime: null, keys: sub.keys } };
  }

  /** The payloads the device received, decrypted, oldest first. */
  async messages(hash: string): Promise<Record<string, unknown>[]> {
    return (await this.call<{ messages: string[] }>('/get-notifications', { clientHash: hash })).messages.map((m) => JSON.parse(m) as Record<string, unknown>);
  }

  /** Pushes the receiver accepted for the device. */
  accepted(hash: string): ReceivedPush[] {
    return this.received.filter((r) => r.hash === hash && r.status === 201);
  }

  async stop(): Promise<void> {
    await this.release();
    await new Promise((resolve) => (this.proxy ? this.proxy.close(resolve) : resolve(undefined)));
    this.proxy?.closeAllConnections();
    await new Promise((resolve) => (this.receiver ? this.receiver._server.close(resolve) : resolve(undefined)));
  }
}
