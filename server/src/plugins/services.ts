import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BidsService } from '../services/bids.ts';
import { CarsService } from '../services/cars.ts';
import { ChatService } from '../services/chat.ts';
import { NotificationsService } from '../services/notifications.ts';
import { OrdersService } from '../services/orders.ts';
import { TestimonialsService } from '../services/testimonials.ts';
import { SupportService } from '../services/support.ts';
import { WatchlistService } from '../services/watchlist.ts';
import { DashboardService } from '../services/dashboard.ts';

/** The domain services, built once with their dependencies; routes only call them. */
export default fp(
  async function services(app: FastifyInstance) {
    const notifications = new NotificationsService(app.db, app.events);
    const cars = new CarsService(app.db, app.viewerCounts, { listingCacheMs: app.config.listingCacheSeconds * 1000 });
    const unsubscribe = app.events.subscribe('bid.placed', () => cars.bidPlaced());
    app.addHook('onClose', async () => unsubscribe());
    app.decorate('services', {
      cars,
      notifications,
      chat: new ChatService(app.db, app.events, notifications),
      bids: new BidsService(app.db, app.events, notifications),
      orders: new OrdersService(app.db, notifications),
      testimonials: new TestimonialsService(app.db),
      support: new SupportService(app.db, app.mailer),
      watchlist: new WatchlistService(app.db, cars),
      dashboard: new DashboardService(app.db),
    });
  },
  { name: 'services', dependencies: ['database', 'socket-server', 'mailer'] },
);

export interface Services {
  cars: CarsService;
  notifications: NotificationsService;
  chat: ChatService;
  bids: BidsService;
  orders: OrdersService;
  testimonials: TestimonialsService;
  support: SupportService;
  watchlist: WatchlistService;
  dashboard: DashboardService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
