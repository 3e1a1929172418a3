import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BidsService } from '../services/bids.ts';
import { CarsService } from '../services/cars.ts';
import { DiscussionService } from '../services/discussion/discussion.ts';
import { DiscussionModeration } from '../services/discussion/moderation.ts';
import { NotificationsService } from '../services/notifications.ts';
import { NotificationPreferences } from '../services/notify/preferences.ts';
import { NotificationDelivery } from '../services/notify/delivery.ts';
import { OrdersService } from '../services/orders/orders-service.ts';
import { OffersService } from '../services/offers/offers-service.ts';
import { SavedSearchesService } from '../services/market/saved-searches.ts';
import { UnsubscribeTokens } from '../services/market/unsubscribe-token.ts';
import { MarketData } from '../services/market/market-data.ts';
import { SimulatedBank, type PaymentProvider } from '../services/orders/payment-provider.ts';
import { IdempotencyKeys } from '../services/idempotency.ts';
import { MarketValues } from '../services/valuation.ts';
import { ListingsService } from '../services/listings.ts';
import { DossierService } from '../services/dossier/dossier-service.ts';
import { AuctionsService } from '../services/auctions.ts';
import { createPhotoStorage, type PhotoStorage } from '../services/photos/photo-storage.ts';
import { PhotoProcessor } from '../services/photos/photo-processing.ts';
import { TestimonialsService } from '../services/testimonials.ts';
import { WatchlistService } from '../services/watchlist.ts';
import { DashboardService } from '../services/dashboard.ts';
import { AccountsAdmin } from '../services/back-office/accounts.ts';
import { ListingModeration } from '../services/back-office/listings.ts';
import { MoneyDesk } from '../services/back-office/money.ts';
import { SupportDesk, SupportService } from '../services/support.ts';
import { SitemapService } from '../services/sitemap.ts';

/** The domain services, built once with their dependencies; routes only call them. */
export default fp<{ paymentProvider?: PaymentProvider; photoStorage?: PhotoStorage; documentStorage?: PhotoStorage }>(
  async function services(app: FastifyInstance, options) {
    const notificationPreferences = new NotificationPreferences(app.db, app.config.jwtSecret);
    const notificationDelivery = new NotificationDelivery({
      db: app.db,
      jobs: app.jobs,
      mailer: app.mailer,
      preferences: notificationPreferences,
      log: app.log.child({ module: 'notify' }),
      appUrl: app.config.appUrl,
      coalesceSeconds: app.config.notify.coalesceSeconds,
      push: app.config.push,
    });
    const notifications = new NotificationsService(app.db, app.events, notificationDelivery);
    const cars = new CarsService(app.db, app.viewerCounts, { listingCacheMs: app.config.listingCacheSeconds * 1000, escrowDaySeconds: app.config.escrow.daySeconds });
    const idempotency = new IdempotencyKeys(app.db);
    const marketValues = new MarketValues(app.db, app.jobs, app.events);
    const orders = new OrdersService({
      db: app.db,
      jobs: app.jobs,
      mailer: app.mailer,
      notifications,
      events: app.events,
      provider: options.paymentProvider ?? new SimulatedBank(),
      idempotency,
      marketValues,
      log: app.log.child({ module: 'orders' }),
      escrowDaySeconds: app.config.escrow.daySeconds,
      appUrl: app.config.appUrl,
    });
    const offers = new OffersService({ db: app.db, jobs: app.jobs, orders, idempotency, log: app.log.child({ module: 'offers' }) });
    const auctions = new AuctionsService({
      db: app.db,
      jobs: app.jobs,
      events: app.events,
      notifications,
      orders,
      log: app.log.child({ module: 'auctions' }),
      minSeconds: app.config.auctions.minSeconds,
      endingNotices: app.config.notify.auctionEndingNotices,
    });
    const savedSearches = new SavedSearchesService({
      db: app.db,
      jobs: app.jobs,
      mailer: app.mailer,
      notifications,
      tokens: new UnsubscribeTokens(app.config.jwtSecret),
      preferences: notificationPreferences,
      log: app.log.child({ module: 'saved-searches' }),
      appUrl: app.config.appUrl,
      digestHourUtc: app.config.alerts.digestHourUtc,
      matchDelaySeconds: app.config.alerts.matchDelaySeconds,
    });
    const photoStorage = options.photoStorage ?? createPhotoStorage({ dataDir: app.config.dataDir, s3: app.config.photoBucket });
    const listings = new ListingsService({
      db: app.db,
      jobs: app.jobs,
      events: app.events,
      notifications,
      orders,
      auctions,
      marketValues,
      savedSearches,
      storage: photoStorage,
      photos: new PhotoProcessor(app.config.photoConcurrency),
      idempotency,
      viewers: app.viewerCounts,
      log: app.log.child({ module: 'listings' }),
      escrowDaySeconds: app.config.escrow.daySeconds,
    });
    const documentStorage = options.documentStorage ?? createPhotoStorage({ dataDir: app.config.dataDir, s3: app.config.photoBucket, folder: 'documents' });
    const dossiers = new DossierService({
      db: app.db,
      events: app.events,
      storage: documentStorage,
      viewers: app.viewerCounts,
      log: app.log.child({ module: 'dossiers' }),
      escrowDaySeconds: app.config.escrow.daySeconds,
    });
    const unsubscribe = [
      app.events.subscribe('bid.placed', () => cars.bidPlaced()),
      // A car leaving or returning to the market, or changing, changes what the listing shows.
      app.events.subscribe('car.status', () => cars.clearListingCache()),
      app.events.subscribe('listing.changed', () => cars.clearListingCache()),
    ];
    app.addHook('onClose', async () => unsubscribe.forEach((off) => off()));
    // Deadlines that passed while no process ran (or before the job queue existed), and the
    // close of every live auction (the sample catalogue's included).
    app.addHook('onReady', async () => {
      const caughtUp = await orders.sweepOverdue();
      if (caughtUp > 0) app.log.info({ orders: caughtUp }, 'caught up on overdue escrow deadlines');
      const lapsed = await offers.sweepLapsed();
      if (lapsed > 0) app.log.info({ offers: lapsed }, 'caught up on lapsed offers');
      await savedSearches.scheduleNextDigest();
      await marketValues.scheduleNextAgeOut();
      await auctions.sweep();
      auctions.startClock();
    });
    app.addHook('preClose', async () => auctions.stopClock());
    app.decorate('services', {
      cars,
      notifications,
      notificationPreferences,
      notificationDelivery,
      idempotency,
      chat: new DiscussionService(app.db, app.events, notifications, { contactGuard: app.config.chatContactGuard, ownHosts: ownHosts(app.config) }),
      discussionModeration: new DiscussionModeration(app.db, app.events, notifications, app.clock),
      bids: new BidsService(app.db, app.events, notifications, idempotency, { auctionExtensionSeconds: app.config.auctions.extensionSeconds }),
      orders,
      offers,
      savedSearches,
      marketValues,
      marketData: new MarketData(app.db),
      listings,
      dossiers,
      auctions,
      photoStorage,
      testimonials: new TestimonialsService(app.db),
      support: new SupportService(app.db, app.mailer),
      watchlist: new WatchlistService(app.db, cars),
      dashboard: new DashboardService(app.db),
      accounts: new AccountsAdmin(app.db, app.events, app.clock),
      listingModeration: new ListingModeration(app.db, app.events, notifications, app.clock),
      moneyDesk: new MoneyDesk(app.db),
      supportDesk: new SupportDesk(app.db, app.mailer),
      sitemap: new SitemapService(app.db, { appUrl: app.config.appUrl, urlsPerFile: app.config.sitemapUrlsPerFile }),
    });
  },
  { name: 'services', dependencies: ['database', 'socket-server', 'mailer', 'jobs'] },
);

export interface Services {
  cars: CarsService;
  notifications: NotificationsService;
  notificationPreferences: NotificationPreferences;
  notificationDelivery: NotificationDelivery;
  idempotency: IdempotencyKeys;
  chat: DiscussionService;
  discussionModeration: DiscussionModeration;
  bids: BidsService;
  orders: OrdersService;
  offers: OffersService;
  savedSearches: SavedSearchesService;
  marketValues: MarketValues;
  marketData: MarketData;
  listings: ListingsService;
  dossiers: DossierService;
  auctions: AuctionsService;
  photoStorage: PhotoStorage;
  testimonials: TestimonialsService;
  support: SupportService;
  watchlist: WatchlistService;
  dashboard: DashboardService;
  accounts: AccountsAdmin;
  listingModeration: ListingModeration;
  moneyDesk: MoneyDesk;
  supportDesk: SupportDesk;
  sitemap: SitemapService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** The app's own hosts, whose links the contact guard lets through. */
function ownHosts(config: { appUrl: string; allowedOrigins: readonly string[] }): string[] {
  const hosts = new Set<string>();
  for (const origin of [config.appUrl, ...config.allowedOrigins]) {
    try {
      hosts.add(new URL(origin).host.toLowerCase());
    } catch {
      // A malformed origin names no host of ours.
    }
  }
  return [...hosts];
}
