import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BidsService } from '../services/bids.ts';
import { CarsService } from '../services/cars.ts';
import { ChatService } from '../services/chat.ts';
import { NotificationsService } from '../services/notifications.ts';

/** The domain services, built once with their dependencies; routes only call them. */
export default fp(
  async function services(app: FastifyInstance) {
    const notifications = new NotificationsService(app.db, app.events);
    app.decorate('services', {
      cars: new CarsService(app.db, app.viewerCounts),
      notifications,
      chat: new ChatService(app.db, app.events, notifications),
      bids: new BidsService(app.db, app.events, notifications),
    });
  },
  { name: 'services', dependencies: ['database', 'socket-server'] },
);

export interface Services {
  cars: CarsService;
  notifications: NotificationsService;
  chat: ChatService;
  bids: BidsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
