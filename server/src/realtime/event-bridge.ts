import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_EVENT_PAYLOADS, type ServerEventName } from '@common/socket-events.ts';
import { checkSent } from '../lib/shape-check.ts';
import { carRoom, carSummaryRoom, sessionRoom, userRoom } from './rooms.ts';
import { connectRedis, sharesThroughRedis, type RedisClient } from '../lib/redis-connection.ts';
import { OutageLog } from '../lib/outage-log.ts';

/**
 * The one place domain events become client events. Services publish after commit; this maps
 * each event to its rooms. Emitting through the adapter reaches every process's sockets.
 */
export default fp(
  async function eventBridge(app: FastifyInstance) {
    const { io, events, carFeed, metrics } = app;
    /**
     * Every pushed payload carries `emittedAt` (epoch ms) so clients on the same clock, such as
     * the load generator, can measure fan-out latency.
     */
    const stamped = <T extends object>(event: ServerEventName, payload: T): T & { emittedAt: number } => {
      metrics.eventsEmitted.inc({ event });
      const sent = { ...payload, emittedAt: Date.now() };
      checkSent(app, `socket ${event}`, SERVER_EVENT_PAYLOADS[event], sent);
      return sent;
    };
    const revoked = () => {
      metrics.eventsEmitted.inc({ event: 'session:revoked' });
      const sent = {};
      checkSent(app, 'socket session:revoked', SERVER_EVENT_PAYLOADS['session:revoked'], sent);
      return sent;
    };

    // Other processes exist only behind a Redis adapter; the in-memory adapter has no peers.
    const clustered = sharesThroughRedis(app.config);
    const feedRelay = clustered && app.redis ? await shardedCarFeedRelay(app, app.redis) : null;

    /** Car events also reach plain-WebSocket subscribers, on this process and the others. */
    const toCarFeed = (carId: number, event: string, payload: unknown) => {
      carFeed.deliver(carId, event, payload);
      feedRelay?.publish(carId, event, payload);
    };

    const unsubscribe = [
      events.subscribe('chat.posted', ({ message }) => {
        const payload = stamped('chat:message', message);
        const timer = metrics.broadcastDuration.startTimer({ event: 'chat:message' });
        io.to(carRoom(message.carId)).emit('chat:message', payload);
        timer();
        toCarFeed(message.carId, 'chat:message', payload);
      }),
      events.subscribe('chat.held', ({ message, userId }) => {
        io.to(userRoom(userId)).emit('chat:message', stamped('chat:message', message));
      }),
      events.subscribe('chat.updated', (update) => {
        const payload = stamped('chat:updated', update);
        io.to(carRoom(update.carId)).emit('chat:updated', payload);
        toCarFeed(update.carId, 'chat:updated', payload);
      }),
      events.subscribe('chat.removed', ({ carId, id, authorId }) => {
        const payload = stamped('chat:removed', { carId, id });
        io.to(authorId === null ? [carRoom(carId)] : [carRoom(carId), userRoom(authorId)]).emit('chat:removed', payload);
        toCarFeed(carId, 'chat:removed', payload);
      }),
      events.subscribe('bid.placed', (event) => {
        const payload = stamped('bid:placed', event);
        const timer = metrics.broadcastDuration.startTimer({ event: 'bid:placed' });
        io.to(carRoom(event.carId)).emit('bid:placed', payload);
        timer();
        io.to(carSummaryRoom(event.carId)).emit(
          'car:summary',
          stamped('car:summary', { carId: event.carId, currentBids: event.currentBids, highestBid: event.highestBid, endsAt: event.endsAt, reserveMet: event.reserveMet }),
        );
        toCarFeed(event.carId, 'bid:placed', payload);
      }),
      events.subscribe('notification.created', ({ userId, notification }) => {
        io.to(userRoom(userId)).emit('notification:new', stamped('notification:new', notification));
      }),
      events.subscribe('notifications.read', ({ userId, unreadCount }) => {
        io.to(userRoom(userId)).emit('notification:unread', stamped('notification:unread', { unreadCount }));
      }),
      events.subscribe('order.updated', ({ order, userIds }) => {
        io.to(userIds.map(userRoom)).emit('order:updated', stamped('order:updated', { order }));
      }),
      events.subscribe('offer.updated', ({ offer, userIds }) => {
        io.to(userIds.map(userRoom)).emit('offer:updated', stamped('offer:updated', { offer }));
      }),
      events.subscribe('auction.ended', (result) => {
        const payload = stamped('auction:ended', result);
        io.to([carRoom(result.carId), carSummaryRoom(result.carId)]).emit('auction:ended', payload);
        toCarFeed(result.carId, 'auction:ended', payload);
      }),
      events.subscribe('car.status', ({ carId, status }) => {
        const payload = stamped('car:status', { carId, status });
        io.to([carRoom(carId), carSummaryRoom(carId)]).emit('car:status', payload);
        toCarFeed(carId, 'car:status', payload);
      }),
      events.subscribe('session.revoked', ({ sessionId }) => {
        io.to(sessionRoom(sessionId)).emit('session:revoked', revoked());
        io.in(sessionRoom(sessionId)).disconnectSockets(true);
        carFeed.closeSession(sessionId);
        if (clustered) io.serverSideEmit('session-revoked', sessionId);
      }),
    ];
    io.on('session-revoked', (sessionId) => carFeed.closeSession(sessionId));

    /** Ends this process's sockets whose session is no longer signed in (revoked or expired). */
    const endSignedOutSockets = async () => {
      // This process's own sockets, read directly: asking the adapter would ask Redis too.
      const sessionIds = carFeed.sessionIds();
      for (const socket of io.of('/').sockets.values()) if (socket.data.session) sessionIds.add(socket.data.session.sessionId);
      if (sessionIds.size === 0) return;
      const active = await app.authService.activeSessionIds([...sessionIds]);
      for (const sessionId of sessionIds) {
        if (active.has(sessionId)) continue;
        io.local.to(sessionRoom(sessionId)).emit('session:revoked', revoked());
        io.local.in(sessionRoom(sessionId)).disconnectSockets(true);
        carFeed.closeSession(sessionId);
      }
    };
    const recheck = setInterval(
      () => void endSignedOutSockets().catch((err: unknown) => app.log.warn({ err }, 'session recheck failed')),
      app.config.sessionRecheckSeconds * 1000,
    );
    recheck.unref();

    app.addHook('onClose', async () => {
      clearInterval(recheck);
      await feedRelay?.close();
      unsubscribe.forEach((off) => off());
    });
  },
  { name: 'event-bridge', dependencies: ['socket-server', 'car-feed', 'metrics', 'auth'] },
);

/**
 * Between processes (one Redis or a Redis Cluster), car events for plain-WebSocket subscribers go out on one sharded channel
 * per car, which a process subscribes to only while it has subscribers of that car: like the
 * sharded Socket.IO adapter's rooms, a process receives only the cars it serves (a
 * server-side emit would reach every process).
 */
async function shardedCarFeedRelay(app: FastifyInstance, publisher: RedisClient) {
  const { carFeed, config } = app;
  const origin = randomUUID();
  const channel = (carId: number) => `${config.redisPrefix}:car-feed:${carId}`;
  const prefix = `${config.redisPrefix}:car-feed:`;
  const subscriber = await connectRedis(config, 'luxemotors-car-feed', true, { shardedSubscribers: true });
  app.redisConnections.push(subscriber);
  const outage = new OutageLog(app.log, 'Car feed between processes (Redis)');
  subscriber.on('error', (err: unknown) => outage.failed(err));
  subscriber.on('ready', () => outage.recovered());
  subscriber.on('smessage', (name: string, message: string) => {
    if (!name.startsWith(prefix)) return;
    try {
      const relayed = JSON.parse(message) as { origin: string; event: string; payload: unknown };
      if (relayed.origin !== origin) carFeed.deliver(Number(name.slice(prefix.length)), relayed.event, relayed.payload);
    } catch (err) {
      app.log.warn({ err }, 'unreadable car feed relay message');
    }
  });
  const follow = (carId: number, watched: boolean) => {
    const done = watched ? subscriber.ssubscribe(channel(carId)) : subscriber.sunsubscribe(channel(carId));
    void done.catch((err: unknown) => outage.failed(err));
  };
  carFeed.onWatch(follow);
  for (const carId of carFeed.watchedCars()) follow(carId, true);
  return {
    publish(carId: number, event: string, payload: unknown) {
      void publisher.spublish(channel(carId), JSON.stringify({ origin, event, payload })).catch((err: unknown) => outage.failed(err));
    },
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
