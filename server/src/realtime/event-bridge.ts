import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { carRoom, carSummaryRoom, sessionRoom, userRoom } from './rooms.ts';

/**
 * The one place domain events become client events. Services publish after commit; this maps
 * each event to its rooms. Emitting through the adapter reaches every process's sockets.
 */
export default fp(
  async function eventBridge(app: FastifyInstance) {
    const { io, events, carFeed } = app;

    /** Car events also reach plain-WebSocket subscribers, on this process and the others. */
    const toCarFeed = (carId: number, event: string, payload: unknown) => {
      carFeed.deliver(carId, event, payload);
      io.serverSideEmit('car-event', carId, event, payload);
    };
    io.on('car-event', (carId, event, payload) => carFeed.deliver(carId, event, payload));

    const unsubscribe = [
      events.subscribe('chat.posted', ({ message }) => {
        io.to(carRoom(message.carId)).emit('chat:message', message);
        toCarFeed(message.carId, 'chat:message', message);
      }),
      events.subscribe('bid.placed', (event) => {
        io.to(carRoom(event.carId)).emit('bid:placed', event);
        io.to(carSummaryRoom(event.carId)).emit('car:summary', { carId: event.carId, currentBids: event.currentBids, highestBid: event.highestBid });
        toCarFeed(event.carId, 'bid:placed', event);
      }),
      events.subscribe('notification.created', ({ userId, notification }) => {
        io.to(userRoom(userId)).emit('notification:new', notification);
      }),
      events.subscribe('notifications.read', ({ userId, unreadCount }) => {
        io.to(userRoom(userId)).emit('notification:unread', { unreadCount });
      }),
      events.subscribe('session.revoked', ({ sessionId }) => {
        io.to(sessionRoom(sessionId)).emit('session:revoked', {});
        io.in(sessionRoom(sessionId)).disconnectSockets(true);
        carFeed.closeSession(sessionId);
        io.serverSideEmit('session-revoked', sessionId);
      }),
    ];
    io.on('session-revoked', (sessionId) => carFeed.closeSession(sessionId));
    app.addHook('onClose', async () => unsubscribe.forEach((off) => off()));
  },
  { name: 'event-bridge', dependencies: ['socket-server', 'car-feed'] },
);
