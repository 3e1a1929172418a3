import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_EVENT_PAYLOADS, type ServerEventName } from '@common/socket-events.ts';
import { checkSent } from '../lib/shape-check.ts';
import { carRoom, carSummaryRoom, sessionRoom, userRoom } from './rooms.ts';

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

    // Other processes exist only behind the Redis adapter; the in-memory adapter has no peers.
    const clustered = app.config.redisUrl !== null;

    /** Car events also reach plain-WebSocket subscribers, on this process and the others. */
    const toCarFeed = (carId: number, event: string, payload: unknown) => {
      carFeed.deliver(carId, event, payload);
      if (clustered) io.serverSideEmit('car-event', carId, event, payload);
    };
    io.on('car-event', (carId, event, payload) => carFeed.deliver(carId, event, payload));

    const unsubscribe = [
      events.subscribe('chat.posted', ({ message }) => {
        const payload = stamped('chat:message', message);
        const timer = metrics.broadcastDuration.startTimer({ event: 'chat:message' });
        io.to(carRoom(message.carId)).emit('chat:message', payload);
        timer();
        toCarFeed(message.carId, 'chat:message', payload);
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
      unsubscribe.forEach((off) => off());
    });
  },
  { name: 'event-bridge', dependencies: ['socket-server', 'car-feed', 'metrics', 'auth'] },
);
