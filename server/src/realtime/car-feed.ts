import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { isRecordId } from '@common/ids.ts';
import { findCarOwner } from '../services/chat.ts';
import type { ActiveSession } from '../services/auth.ts';
import { originPolicy } from './origins.ts';
import { MAX_SOCKET_PAYLOAD_BYTES } from './limits.ts';
import { EventThrottle } from './throttle.ts';
import { slowConsumerGuard, type SlowConsumerGuard } from './slow-consumers.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { sendError } from '../lib/errors.ts';

const MAX_SUBSCRIPTIONS = 20;
/** Socket.IO's path (its default), whose upgrades Socket.IO handles itself. */
const SOCKET_IO_PATH = '/socket.io/';

interface Subscriber {
  id: string;
  socket: WebSocket;
  session: ActiveSession | null;
  cars: Set<number>;
}

/**
 * A plain-WebSocket feed at /api/stream for integrators whose clients do not speak Socket.IO.
 * Send `{"subscribe": <carId>}` (or `{"unsubscribe": <carId>}`) and receive the car's events as
 * JSON text frames `{"event": "bid:placed", "data": {...}}`. Same origin, auth and size rules as
 * Socket.IO; the access token goes in the `token` query parameter.
 */
export class CarFeed {
  private readonly byCar = new Map<number, Set<Subscriber>>();
  private readonly all = new Set<Subscriber>();

  private watchers: ((carId: number, watched: boolean) => void)[] = [];

  constructor(private readonly guard: SlowConsumerGuard) {}

  /** Told when this process gains its first subscriber of a car, and when it loses its last. */
  onWatch(listener: (carId: number, watched: boolean) => void): void {
    this.watchers.push(listener);
  }

  /** Cars this process has subscribers of. */
  watchedCars(): number[] {
    return [...this.byCar.keys()];
  }

  add(subscriber: Subscriber): void {
    this.all.add(subscriber);
  }

  remove(subscriber: Subscriber): void {
    this.all.delete(subscriber);
    for (const carId of subscriber.cars) this.drop(subscriber, carId);
  }

  subscribe(subscriber: Subscriber, carId: number): void {
    subscriber.cars.add(carId);
    let set = this.byCar.get(carId);
    if (!set) {
      this.byCar.set(carId, (set = new Set()));
      for (const watcher of this.watchers) watcher(carId, true);
    }
    set.add(subscriber);
  }

  unsubscribe(subscriber: Subscriber, carId: number): void {
    subscriber.cars.delete(carId);
    this.drop(subscriber, carId);
  }

  private drop(subscriber: Subscriber, carId: number): void {
    const set = this.byCar.get(carId);
    if (!set?.delete(subscriber) || set.size > 0) return;
    this.byCar.delete(carId);
    for (const watcher of this.watchers) watcher(carId, false);
  }

  /** Sends an event to this process's subscribers of the car; the frame is built once. */
  deliver(carId: number, event: string, data: unknown): void {
    const subscribers = this.byCar.get(carId);
    if (!subscribers || subscribers.size === 0) return;
    const frame = JSON.stringify({ event, data });
    for (const subscriber of subscribers) if (this.guard.admit(subscriber.socket, subscriber.id)) subscriber.socket.send(frame);
  }

  /** Sessions of this process's signed-in subscribers. */
  sessionIds(): Set<string> {
    const ids = new Set<string>();
    for (const subscriber of this.all) if (subscriber.session) ids.add(subscriber.session.sessionId);
    return ids;
  }

  closeSession(sessionId: string): void {
    for (const subscriber of this.all) {
      if (subscriber.session?.sessionId === sessionId) {
        subscriber.socket.send(JSON.stringify({ event: 'session:revoked', data: {} }));
        subscriber.socket.close(4401, 'session revoked');
      }
    }
  }

  closeAll(): void {
    for (const subscriber of this.all) subscriber.socket.close(1001, 'server shutting down');
  }
}

export default fp(
  async function carFeed(app: FastifyInstance) {
    const feed = new CarFeed(slowConsumerGuard(app));
    app.decorate('carFeed', feed);
    const isAllowedOrigin = originPolicy(app.config);
    // Only the feed's upgrades go through Fastify. Left to see every upgrade, the WebSocket
    // plugin would also route each Socket.IO connection through Fastify's hooks and keep a
    // response object with its request attached to the socket for the connection's life.
    const feedUpgrades = new EventEmitter();
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!request.url?.startsWith(SOCKET_IO_PATH)) feedUpgrades.emit('upgrade', request, socket, head);
    });
    await app.register(websocket, { options: { maxPayload: MAX_SOCKET_PAYLOAD_BYTES, server: feedUpgrades as unknown as Server } });

    app.register(async (scope) => {
      scope.get(
        '/api/stream',
        {
          websocket: true,
          schema: { hide: true },
          // Refused before the upgrade completes: wrong origin, bad token.
          preValidation: async (request, reply) => {
            if (!isAllowedOrigin(request.headers.origin, request.headers.host)) {
              return sendError(reply, ErrorCode.FORBIDDEN_ORIGIN);
            }
            const token = (request.query as { token?: string }).token;
            if (token) {
              const claims = await app.accessTokens.verify(token);
              const session = claims ? await app.authService.activeSession(claims.sessionId, claims.userId) : null;
              if (!session) return sendError(reply, ErrorCode.UNAUTHORIZED, 'Invalid or expired access token');
              request.session = session;
            }
          },
        },
        (socket, request) => {
          const subscriber: Subscriber = { id: request.id, socket, session: request.session, cars: new Set() };
          feed.add(subscriber);
          const throttle = new EventThrottle();
          const send = (message: object) => socket.send(JSON.stringify(message));
          socket.on('message', async (raw, isBinary) => {
            const verdict = throttle.take();
            if (verdict === 'abusive') return socket.close(1008, 'rate limit');
            if (verdict === 'limited') return send({ event: 'error', data: { code: ErrorCode.RATE_LIMITED, error: 'Too many requests; slow down.' } });
            const command = isBinary ? null : parseCommand(raw.toString());
            if (!command) return send({ event: 'error', data: { code: ErrorCode.VALIDATION_FAILED, error: 'Send {"subscribe": carId} or {"unsubscribe": carId}' } });
            if (command.action === 'unsubscribe') {
              feed.unsubscribe(subscriber, command.carId);
              return send({ event: 'unsubscribed', data: { carId: command.carId } });
            }
            if (subscriber.cars.size >= MAX_SUBSCRIPTIONS) return send({ event: 'error', data: { code: ErrorCode.TOO_MANY_SUBSCRIPTIONS, error: `At most ${MAX_SUBSCRIPTIONS} cars per connection` } });
            if (!(await findCarOwner(app.db, command.carId))) return send({ event: 'error', data: { code: ErrorCode.NOT_FOUND, error: 'Car not found', carId: command.carId } });
            feed.subscribe(subscriber, command.carId);
            send({ event: 'subscribed', data: { carId: command.carId, viewers: app.viewerCounts.countFor(command.carId) } });
          });
          socket.on('close', () => feed.remove(subscriber));
        },
      );
    });
    app.addHook('preClose', async () => feed.closeAll());
  },
  { name: 'car-feed', dependencies: ['auth', 'metrics'] },
);

function parseCommand(text: string): { action: 'subscribe' | 'unsubscribe'; carId: number } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  if (entries.length !== 1) return null;
  const [action, carId] = entries[0]!;
  if ((action !== 'subscribe' && action !== 'unsubscribe') || !isRecordId(carId)) return null;
  return { action, carId };
}

declare module 'fastify' {
  interface FastifyInstance {
    carFeed: CarFeed;
  }
}
