import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../../../db/client.ts';
import { sellers } from '../../../../db/schema/index.ts';
import type { CarStatus } from '@common/car-lifecycle.ts';
import type { EventBus } from '../../lib/events.ts';
import type { JobRunner } from '../../jobs/job-runner.ts';
import type { Mailer } from '../mailer.ts';
import type { NotificationsService } from '../notifications.ts';
import type { MarketValues } from '../valuation.ts';
import { orderMessages, type OrderNews } from './order-messages.ts';
import { readOrder, type OrderRecord } from './order-views.ts';
import { readOfferForParties } from '../offers/offer-views.ts';

type NotificationRows = Awaited<ReturnType<NotificationsService['create']>>;

/** What a transaction did to orders and offers, announced (`OrderAnnouncements.announce`) once it has committed. */
export class OrderChanges {
  readonly notifications: NotificationRows = [];
  readonly orders = new Set<number>();
  /** Offers moved (contract §Offers): both parties' screens follow them. */
  readonly offers = new Set<number>();
  readonly cars = new Map<number, CarStatus>();
  settle = false;
  mail = false;
  valuation = false;
}

export interface OrderAnnouncementsDeps {
  db: Database;
  jobs: JobRunner;
  mailer: Mailer;
  notifications: NotificationsService;
  events: EventBus;
  marketValues: MarketValues;
  log: FastifyBaseLogger;
  appUrl: string;
}

/**
 * What the parties and the rest of the app learn about order changes: the bell notifications and
 * emails, written in the change's own transaction (`tell`), then, once it has committed, the
 * pushes, the wake-ups of the jobs it queued and the domain events (`announce`).
 */
export class OrderAnnouncements {
  constructor(private readonly deps: OrderAnnouncementsDeps) {}

  /** Writes both parties' notifications and emails about `news` in the caller's transaction. */
  async tell(tx: Transaction, changes: OrderChanges, news: OrderNews, record: OrderRecord): Promise<void> {
    const { notifications, mails } = orderMessages(news, record, this.deps.appUrl);
    changes.notifications.push(...(await this.deps.notifications.create(tx, notifications)));
    for (const mail of mails) await this.deps.mailer.send(mail, tx);
    if (mails.length > 0) changes.mail = true;
  }

  /** Runs `work` in a transaction, then tells everyone concerned what it changed. */
  async transaction<T>(work: (tx: Transaction, changes: OrderChanges) => Promise<T>): Promise<T> {
    const changes = new OrderChanges();
    const result = await this.deps.db.transaction((tx) => work(tx, changes));
    await this.announce(changes);
    return result;
  }

  /** After the transaction that made `changes` has committed: notifications, pushes, jobs. */
  async announce(changes: OrderChanges): Promise<void> {
    // The change has committed: a failure from here on must not turn its answer into an error.
    try {
      if (changes.settle) this.deps.jobs.wake('payment.settle');
      if (changes.mail) this.deps.mailer.wake();
      if (changes.valuation) this.deps.marketValues.wake();
      for (const [carId, status] of changes.cars) this.deps.events.publish('car.status', { carId, status });
      await this.deps.notifications.announce(changes.notifications);
      for (const orderId of changes.orders) {
        const order = await readOrder(this.deps.db, orderId);
        if (!order) continue;
        const [seller] = await this.deps.db.select({ userId: sellers.userId }).from(sellers).where(eq(sellers.id, order.sellerId));
        const userIds = [order.buyerId, ...(seller?.userId ? [seller.userId] : [])];
        this.deps.events.publish('order.updated', { order, userIds });
      }
      for (const offerId of changes.offers) {
        const moved = await readOfferForParties(this.deps.db, offerId);
        if (moved) this.deps.events.publish('offer.updated', moved);
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not announce an order change');
    }
  }
}
