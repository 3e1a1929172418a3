import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../db/client.ts';
import { offers } from '../../db/schema/index.ts';
import type { Offer } from '@common/schemas/offers.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { OFFER_STATUSES, OFFER_TRANSITIONS, type OfferStatus } from '@common/offer-lifecycle.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { errorMessages } from '../helpers/database-errors.ts';
import { createListing, orderApi } from '../helpers/escrow.ts';
import { createUser } from '../helpers/users.ts';

/**
 * The database's own guard on offers (db/migrations/0010_offers.sql, trigger `offers_status_guard`)
 * against the lifecycle table the server applies (common/offer-lifecycle.ts OFFER_TRANSITIONS):
 * a statement that bypasses the server still cannot move an offer where the table does not.
 */

let t: TestApp;
let offer: Offer;
/** An order no offer refers to, for the offer's `order_id` while it is `accepted` (a CHECK requires one). */
let orderId: number;

beforeAll(async () => {
  t = await startTestApp();
  const api = orderApi(t);
  const [buyer, seller] = await Promise.all([createUser(t, { name: 'Blair Buyer' }), createUser(t, { name: 'Sam Seller' })]);
  const car = await createListing(t, seller, { price: 100_000 });
  const made = await api.call('POST', `/api/cars/${car.id}/offers`, buyer, { amount: 80_000 });
  expect(made.statusCode, made.body).toBe(201);
  offer = made.json().data;
  const placed = await api.place(buyer, await createListing(t, seller, { price: 90_000 }));
  expect(placed.statusCode, placed.body).toBe(201);
  orderId = (placed.json().data as OrderWithEvents).id;
});
afterAll(async () => {
  await t?.close();
});

/** The order reference the table's CHECK wants with `status`, so only the trigger can refuse. */
const orderFor = (status: OfferStatus) => (status === 'accepted' ? orderId : null);

/**
 * Puts the offer in `from` with the guard switched off, then runs `change` with it on; always
 * rolled back, so every attempt starts from the same offer. 'accepted' or the refusal's messages.
 */
async function attempt(from: OfferStatus, change: (tx: Transaction) => Promise<unknown>): Promise<string> {
  return t.database.db
    .transaction(async (tx) => {
      await tx.execute(sql`alter table offers disable trigger offers_status_guard`);
      await tx.update(offers).set({ status: from, orderId: orderFor(from) }).where(eq(offers.id, offer.id));
      await tx.execute(sql`alter table offers enable trigger offers_status_guard`);
      await change(tx);
      throw new Error('accepted');
    })
    .catch((error: unknown) => (error instanceof Error && error.message === 'accepted' ? 'accepted' : `refused: ${errorMessages(error)}`));
}

describe('the offers table guards the lifecycle', () => {
  it('moves an offer from one status to another exactly when the lifecycle table allows it', async () => {
    const allowed = new Set(OFFER_TRANSITIONS.map((tr) => `${tr.from}>${tr.to}`));
    // The table's moves out of `open` are the only ones; nothing leaves a closed status.
    expect([...allowed].sort()).toEqual(['open>accepted', 'open>declined', 'open>expired', 'open>open', 'open>withdrawn']);
    for (const from of OFFER_STATUSES) {
      for (const to of OFFER_STATUSES) {
        if (from === to) continue;
        const outcome = await attempt(from, (tx) => tx.update(offers).set({ status: to, orderId: orderFor(to) }).where(eq(offers.id, offer.id)));
        if (allowed.has(`${from}>${to}`)) expect(outcome, `${from} → ${to}`).toBe('accepted');
        // Refused by the guard itself, not by another constraint.
        else expect(outcome, `${from} → ${to}`).toMatch(new RegExp(`refused: .*offer ${offer.id} cannot move from ${from} to ${to}`, 's'));
      }
    }
  });

  it('lets an offer stay in its status with a new amount (a counter) only while it is open', async () => {
    for (const status of OFFER_STATUSES) {
      // A counter: the amount on the table and who put it there change, the status does not.
      const outcome = await attempt(status, (tx) => tx.update(offers).set({ status, amount: 95_000, amountBy: 'seller' }).where(eq(offers.id, offer.id)));
      if (OFFER_TRANSITIONS.some((tr) => tr.from === status && tr.to === status)) expect(outcome, status).toBe('accepted');
      else expect(outcome, status).toMatch(new RegExp(`refused: .*offer ${offer.id} is ${status}: its amount is final`, 's'));
    }
  });

  it('refuses a new offer in any status but open', async () => {
    const [row] = await t.database.db.select().from(offers).where(eq(offers.id, offer.id));
    const { id: _id, createdAt: _created, updatedAt: _updated, ...values } = row!;
    for (const status of OFFER_STATUSES) {
      const outcome = await attempt('declined', (tx) => tx.insert(offers).values({ ...values, status, orderId: orderFor(status) }));
      if (status === 'open') expect(outcome).toBe('accepted');
      else expect(outcome, status).toMatch(new RegExp(`refused: .*an offer starts open, not ${status}`, 's'));
    }
    // Nothing stayed behind: the offer as it was, and no other.
    expect(await t.database.db.select().from(offers).where(eq(offers.carId, offer.carId))).toEqual([row]);
  });
});
