import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import {
  AckRefusalSchema,
  CLIENT_EVENTS,
  SERVER_EVENT_PAYLOADS,
  type Ack,
  type ClientEventAck,
  type ClientEventName,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@common/socket-events.ts';
import { checkSent } from '../lib/shape-check.ts';
import type { ActiveSession } from '../services/auth.ts';
import { findCarOwner } from '../services/chat.ts';
import { shardedRedisAdapter } from './cluster-adapter.ts';
import { sharesThroughRedis, type RedisClient } from '../lib/redis-connection.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { originPolicy } from './origins.ts';
import { PresenceTracker } from './presence.ts';
import { carIdOfRoom, carRoom, carSummaryRoom, sessionRoom, userRoom } from './rooms.ts';
import { EventThrottle } from './throttle.ts';
import { parseCarPayload, parseWatchPayload } from './validation.ts';
import { MAX_SOCKET_PAYLOAD_BYTES } from './limits.ts';
import { SWEEP_INTERVAL_MS, slowConsumerGuard, type EngineConnection } from './slow-consumers.ts';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';


export type { Ack, ClientToServerEvents, ServerToClientEvents } from '@common/socket-events.ts';

/** Relayed between processes: a sign-out reaches the sockets of that session wherever they are. */
export interface InterServerEvents {
  'session-revoked': (sessionId: string) => void;
}

export interface SocketData {
  session: ActiveSession | null;
}

type AdapterOption = ServerOptions['adapter'];

export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Socket.IO on the app's own HTTP server. Clients watch cars (`car:join`) and receive what
 * changes; signed-in clients also get their notifications. All writes go through REST.
 */
export default fp(
  async function socketServer(app: FastifyInstance) {
    const { config } = app;
    const isAllowedOrigin = originPolicy(config);
    const presenceOutage = new OutageLog(app.log, 'Viewer counts from other processes (Redis)');
    const presence = new PresenceTracker({
      redis: app.redis,
      keyPrefix: config.redisPrefix,
      onError: (err) => presenceOutage.failed(err),
      onExchange: () => presenceOutage.recovered(),
    });
    app.decorate('presence', presence);
    app.viewerCounts = presence;

    // Between processes: the sharded adapter over one Redis or a Redis Cluster.
    const adapterClients: RedisClient[] = [];
    let adapter: AdapterOption | undefined;
    if (sharesThroughRedis(config)) {
      const sharded = await shardedRedisAdapter(config, app.log);
      adapter = sharded.adapter;
      adapterClients.push(...sharded.clients);
      app.redisConnections.push(...sharded.clients);
    }
    const adapterOutage = new OutageLog(app.log, 'Socket.IO fan-out between processes (Redis)');
    for (const client of adapterClients) {
      client.on('error', (err: unknown) => adapterOutage.failed(err));
      client.on('ready', () => adapterOutage.recovered());
    }

    const io: AppServer = new Server(app.server, {
      serveClient: false,
      transports: config.socketTransports,
      maxHttpBufferSize: MAX_SOCKET_PAYLOAD_BYTES,
      pingInterval: 20_000,
      pingTimeout: 20_000,
      allowRequest: (req, callback) => callback(null, isAllowedOrigin(req.headers.origin, req.headers.host)),
      // A single process recovers brief disconnections from memory; the sharded adapter keeps no
      // event log to recover from, so clients of several processes resync by REST.
      ...(adapter ? {} : { connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false } }),
      ...(adapter ? { adapter } : {}),
    });
    app.decorate('io', io);
    const guard = slowConsumerGuard(app);
    // Engine.IO documents `clients` (open connections by id); its typings mark it protected.
    const engineClients = (io.engine as unknown as { clients: Record<string, EngineConnection> }).clients;
    const sweep = setInterval(() => guard.sweep(Object.values(engineClients)), SWEEP_INTERVAL_MS);
    sweep.unref();

    const carExists = existenceCache(async (carId) => (await findCarOwner(app.db, carId)) !== null);

    io.use(async (socket, next) => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      if (token === undefined || token === null || token === '') {
        socket.data.session = null;
        return next();
      }
      try {
        const claims = typeof token === 'string' ? await app.accessTokens.verify(token) : null;
        const session = claims ? await app.authService.activeSession(claims.sessionId, claims.userId) : null;
        if (!session) return next(new Error('unauthorized'));
        socket.data.session = session;
        next();
      } catch (err) {
        app.log.warn({ err }, 'socket authentication failed');
        next(new Error('unauthorized'));
      }
    });

    io.on('connection', (socket: AppSocket) => {
      // The handshake has been read; keeping the HTTP request alive for the life of every
      // connection would cost memory per viewer for nothing.
      (socket.conn as unknown as { request: unknown }).request = null;
      const session = socket.data.session;
      if (session) void socket.join([userRoom(session.userId), sessionRoom(session.sessionId)]);
      if (socket.recovered) {
        // Rooms came back with the recovered connection; count it as a viewer again.
        for (const room of socket.rooms) {
          const carId = carIdOfRoom(room);
          if (carId !== null) presence.join(carId);
        }
      }
      const throttle = new EventThrottle();

      /** Validates and throttles before the handler runs; answers through the ack in the contract's shape. */
      const handle = <E extends ClientEventName, P>(
        event: E,
        parse: (payload: unknown) => P | null,
        handler: (payload: P) => Promise<ClientEventAck<E>> | ClientEventAck<E>,
      ) => {
        socket.on(event as ClientEventName, async (payload: unknown, ack?: unknown) => {
          const answer: Ack<ClientEventAck<E>> = typeof ack === 'function' ? (ack as Ack<ClientEventAck<E>>) : () => {};
          const reply: Ack<ClientEventAck<E>> = (response) => {
            checkSent(app, `socket ${event} ack`, response.ok ? CLIENT_EVENTS[event].ack : AckRefusalSchema, response.ok ? response.data : response);
            answer(response);
          };
          const verdict = throttle.take();
          if (verdict === 'abusive') {
            app.log.warn({ socket: socket.id }, 'dropping a socket that ignores the event rate limit');
            socket.disconnect(true);
            return;
          }
          if (verdict === 'limited') return reply({ ok: false, error: 'Too many requests; slow down.', code: ErrorCode.RATE_LIMITED });
          const parsed = parse(payload);
          if (parsed === null) return reply({ ok: false, error: 'Invalid payload', code: ErrorCode.VALIDATION_FAILED });
          try {
            reply({ ok: true, data: await handler(parsed) });
          } catch (error) {
            if (error instanceof EventError) return reply({ ok: false, error: error.message, code: error.code });
            app.log.error({ err: error }, `socket ${event} failed`);
            reply({ ok: false, error: ERROR_CODES.INTERNAL_ERROR.message, code: ErrorCode.INTERNAL_ERROR });
          }
        });
      };

      handle('car:join', parseCarPayload, async ({ carId }) => {
        if (!(await carExists(carId))) throw new EventError(ErrorCode.NOT_FOUND, 'Car not found');
        if (!socket.rooms.has(carRoom(carId))) {
          await socket.join(carRoom(carId));
          presence.join(carId);
        }
        return { carId, viewers: presence.countFor(carId) };
      });

      handle('car:leave', parseCarPayload, async ({ carId }) => {
        if (socket.rooms.has(carRoom(carId))) {
          await socket.leave(carRoom(carId));
          presence.leave(carId);
        }
        return { carId, viewers: presence.countFor(carId) };
      });

      handle('cars:watch', parseWatchPayload, async ({ carIds }) => {
        for (const room of socket.rooms) if (room.startsWith('car-summary:')) await socket.leave(room);
        if (carIds.length > 0) await socket.join(carIds.map(carSummaryRoom));
        return { carIds };
      });

      socket.on('disconnecting', () => {
        for (const room of socket.rooms) {
          const carId = carIdOfRoom(room);
          if (carId !== null) presence.leave(carId);
        }
      });
    });

    // Viewer counts go out once per tick per car, to this process's own sockets only: every
    // process sends the same cluster-wide total to its own viewers, so nobody gets it twice.
    presence.onChange((changes) => {
      const emittedAt = Date.now();
      for (const [carId, count] of changes) {
        const viewers = { carId, count, emittedAt };
        const summary = { carId, viewers: count, emittedAt };
        checkSent(app, 'socket car:viewers', SERVER_EVENT_PAYLOADS['car:viewers'], viewers);
        checkSent(app, 'socket car:summary', SERVER_EVENT_PAYLOADS['car:summary'], summary);
        io.local.to(carRoom(carId)).volatile.emit('car:viewers', viewers);
        io.local.to(carSummaryRoom(carId)).volatile.emit('car:summary', summary);
        app.carFeed.deliver(carId, 'car:viewers', viewers);
      }
      app.metrics.eventsEmitted.inc({ event: 'car:viewers' }, changes.size);
    });
    presence.start();

    app.addHook('preClose', async () => {
      clearInterval(sweep);
      await presence.stop();
      // Closing here, before Fastify waits for connections, keeps open sockets from holding shutdown.
      await io.close();
    });
    app.addHook('onClose', async () => {
      await Promise.all(adapterClients.map((client) => client.quit().catch(() => client.disconnect())));
    });
  },
  { name: 'socket-server', dependencies: ['auth', 'redis', 'car-feed', 'metrics'] },
);

/** A refusal the client caused, answered through the ack. */
export class EventError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Remembers cars known to exist (they are never deleted while listed), so join storms cost one query per car. */
function existenceCache(lookup: (carId: number) => Promise<boolean>, maxEntries = 100_000) {
  const known = new Set<number>();
  return async (carId: number) => {
    if (known.has(carId)) return true;
    const exists = await lookup(carId);
    if (exists) {
      if (known.size >= maxEntries) known.clear();
      known.add(carId);
    }
    return exists;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    io: AppServer;
    presence: PresenceTracker;
  }
}
