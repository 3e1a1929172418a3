import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, payments, testimonials } from '../../db/schema/index.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { HoldingBank, createListing, orderApi, orderIn, waitForOrder } from '../helpers/escrow.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { connectSocket, nextEvent, type ClientSocket } from '../helpers/sockets.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/** One escrow day lasts 2 s here: a payment window is 6 s, a basic inspection 6 s. */
const DAY_SECONDS = 2;

let t: TestApp;
let mailbox: TestMailbox;
let bank: HoldingBank;
let api: ReturnType<typeof orderApi>;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  mailbox = new TestMailbox();
  bank = new HoldingBank();
  t = await startTestApp({ SMTP_URL: await mailbox.start(), ESCROW_DAY_SECONDS: String(DAY_SECONDS), JOB_POLL_SECONDS: '0.5' }, undefined, { paymentProvider: bank });
  await t.listen();
  api = orderApi(t);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
  await mailbox?.stop();
});

async function parties() {
  const [buyer, seller] = await Promise.all([createUser(t, { name: 'Blair Buyer' }), createUser(t, { name: 'Sam Seller' })]);
  return { buyer, seller };
}

async function listen(user: SignedInUser) {
  const socket = await connectSocket(t.url, { token: user.accessToken });
  sockets.push(socket);
  return socket;
}

async function ledger(orderId: number) {
  return t.database.db.select().from(payments).where(eq(payments.orderId, orderId));
}

describe('buying through escrow, end to end', () => {
  it('takes an order from payment to release, telling both parties at every step', async () => {
    const { buyer, seller } = await parties();
    const car = await createListing(t, seller, { price: 150_000 });
    const buyerSocket = await listen(buyer);
    const sellerSocket = await listen(seller);

    const placed = await api.place(buyer, car);
    expect(placed.statusCode).toBe(201);
    const order: OrderWithEvents = placed.json().data;
    expect(order).toMatchObject({
      carId: car.id,
      buyerId: buyer.id,
      amount: 150_000,
      plan: 'premium',
      escrowFee: 399,
      status: 'awaiting_payment',
      inspectionDays: 7,
      inspectionEndsAt: null,
      shipment: null,
      payment: null,
      waitingOn: 'buyer',
      buyerName: 'Blair Buyer',
      sellerName: 'Sam Seller',
    });
    // The payment window is three escrow days from the database's clock.
    expect(Date.parse(order.paymentDueAt) - Date.parse(order.createdAt)).toBeCloseTo(3 * DAY_SECONDS * 1000, -2);
    expect(order.events).toEqual([{ id: expect.any(Number), from: null, to: 'awaiting_payment', actor: 'buyer', note: 'Order placed', at: expect.any(String) }]);
    const paymentDue = await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Payment due'));
    expect(paymentDue.links).toContain(`${t.config.appUrl}/orders/${order.id}`);

    const sellerSeesFunding = nextEvent<{ order: OrderWithEvents }>(sellerSocket, 'order:updated', (e) => e.order.id === order.id && e.order.status === 'funded');
    const paid = await api.act(buyer, order.id, 'pay', { method: 'card' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'funded', waitingOn: 'seller', payment: { method: 'card', amountCharged: 150_399, reference: expect.stringMatching(/^SIM-CRD-/) } });
    expect((await sellerSeesFunding).order.payment?.amountCharged).toBe(150_399);
    expect((await api.call('GET', `/api/cars/${car.id}`, undefined)).json().data.status).toBe('pending');

    const buyerSeesShipment = nextEvent<{ order: OrderWithEvents }>(buyerSocket, 'order:updated', (e) => e.order.status === 'in_transit');
    const shipped = await api.act(seller, order.id, 'ship', { carrier: 'Reliable Carriers', trackingNumber: 'RC-7781' });
    expect(shipped.json().data).toMatchObject({ status: 'in_transit', shipment: { carrier: 'Reliable Carriers', trackingNumber: 'RC-7781' }, waitingOn: 'buyer' });
    expect((await buyerSeesShipment).order.shipment?.trackingNumber).toBe('RC-7781');
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Your car has shipped') && m.body.includes('RC-7781'));

    const delivered = (await api.act(buyer, order.id, 'confirm-delivery')).json().data as OrderWithEvents;
    expect(delivered.status).toBe('inspection');
    expect(Date.parse(delivered.inspectionEndsAt!) - Date.parse(delivered.updatedAt)).toBeCloseTo(7 * DAY_SECONDS * 1000, -2);

    const sellerSeesRelease = nextEvent<{ order: OrderWithEvents }>(sellerSocket, 'order:updated', (e) => e.order.status === 'released');
    const accepted = await api.act(buyer, order.id, 'accept');
    expect(accepted.statusCode).toBe(200);
    expect(['accepted', 'released']).toContain(accepted.json().data.status);
    const released = (await sellerSeesRelease).order;
    expect(released).toMatchObject({ status: 'released', waitingOn: null, payout: { amount: 150_000, status: 'settled', reference: expect.stringMatching(/^SIM-PAY-/) }, refund: null });
    expect(released.events.map((e) => [e.from, e.to, e.actor])).toEqual([
      [null, 'awaiting_payment', 'buyer'],
      ['awaiting_payment', 'funded', 'buyer'],
      ['funded', 'in_transit', 'seller'],
      ['in_transit', 'inspection', 'buyer'],
      ['inspection', 'accepted', 'buyer'],
      ['accepted', 'released', 'system'],
    ]);
    await mailbox.waitFor((m) => m.to.includes(seller.email) && m.subject.startsWith('Funds released'));
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Purchase complete'));

    // Money in equals money out: the seller got the price, the fee was kept, nothing else moved.
    const legs = await ledger(order.id);
    expect(legs.map((p) => [p.kind, p.amount, p.status]).sort()).toEqual([
      ['charge', 150_399, 'settled'],
      ['fee', 399, 'settled'],
      ['payout', 150_000, 'settled'],
    ]);
    expect((await api.call('GET', `/api/cars/${car.id}`, undefined)).json().data.status).toBe('sold');
    const sellerNotes = (await api.call('GET', '/api/notifications', seller)).json().data.notifications as { title: string }[];
    expect(sellerNotes.map((n) => n.title)).toEqual(
      expect.arrayContaining(['New escrow order', "Buyer's payment is in escrow", 'Shipment recorded', 'Car delivered', 'The buyer accepted the car', 'Funds released']),
    );
    const buyerNotes = (await api.call('GET', '/api/notifications', buyer)).json().data.notifications as { title: string }[];
    expect(buyerNotes.map((n) => n.title)).toEqual(
      expect.arrayContaining(['Payment due', 'Payment secured in escrow', 'Your car has shipped', 'Inspection period started', 'You accepted the car', 'Purchase complete']),
    );
  });

  it('makes the buyer\'s testimonial verified once the order is released', async () => {
    const { buyer, seller } = await parties();
    const before = await api.call('POST', '/api/testimonials', buyer, { rating: 5, comment: 'Written before the purchase completed.' });
    expect(before.json().data.verified).toBe(false);
    const order = await orderIn(t, 'inspection', buyer, seller);
    await api.act(buyer, order.id, 'accept');
    await waitForOrder(t, buyer, order.id, (o) => o.status === 'released');
    const [row] = await t.database.db.select().from(testimonials).where(eq(testimonials.id, before.json().data.id));
    expect(row).toMatchObject({ verified: true, purchaseAmount: order.amount });
    const after = await api.call('POST', '/api/testimonials', buyer, { rating: 5, comment: 'Funds were released only after I approved the car.' });
    expect(after.json().data).toMatchObject({ verified: true, purchaseAmount: order.amount });
  });

  it('accepts the car by itself when the inspection period ends without a dispute', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'inspection', buyer, seller, 'basic');
    expect(order.inspectionDays).toBe(3);
    const released = await waitForOrder(t, buyer, order.id, (o) => o.status === 'released', 20_000);
    expect(released.events.slice(-2).map((e) => [e.to, e.actor])).toEqual([
      ['accepted', 'system'],
      ['released', 'system'],
    ]);
    // Not before the period ended, by the database's clock.
    expect(Date.parse(released.events.at(-2)!.at)).toBeGreaterThanOrEqual(Date.parse(order.inspectionEndsAt!));
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Inspection ends in 24 hours'));
  });

  it('cancels an order that is not paid within the payment window', async () => {
    const { buyer, seller } = await parties();
    const car = await createListing(t, seller);
    const order = (await api.place(buyer, car)).json().data as OrderWithEvents;
    const cancelled = await waitForOrder(t, seller, order.id, (o) => o.status === 'cancelled', 20_000);
    expect(cancelled.events.at(-1)).toMatchObject({ from: 'awaiting_payment', to: 'cancelled', actor: 'system' });
    expect(Date.parse(cancelled.events.at(-1)!.at)).toBeGreaterThanOrEqual(Date.parse(order.paymentDueAt));
    expect((await api.act(buyer, order.id, 'pay')).json()).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'cancelled' } });
    expect(await ledger(order.id)).toEqual([]);
    // The car never left the market.
    expect((await api.call('GET', `/api/cars/${car.id}`, undefined)).json().data.status).toBe('active');
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Payment due in 24 hours'));
  });

  it('takes a funded car off the market and cancels every other unpaid order for it', async () => {
    const { buyer, seller } = await parties();
    const rival = await createUser(t);
    const car = await createListing(t, seller);
    const mine = (await api.place(buyer, car)).json().data as OrderWithEvents;
    const theirs = (await api.place(rival, car)).json().data as OrderWithEvents;
    const rivalSocket = await listen(rival);
    const rivalTold = nextEvent<{ order: OrderWithEvents }>(rivalSocket, 'order:updated', (e) => e.order.id === theirs.id);
    const viewer = await connectSocket(t.url);
    sockets.push(viewer);
    await viewer.timeout(5_000).emitWithAck('car:join', { carId: car.id });
    const carStatus = nextEvent<{ carId: number; status: string }>(viewer, 'car:status');

    expect((await api.act(buyer, mine.id, 'pay')).statusCode).toBe(200);
    const voided = (await rivalTold).order;
    expect(voided).toMatchObject({ status: 'cancelled' });
    expect(voided.events.at(-1)).toMatchObject({ actor: 'system', note: 'Another buyer paid for this car first.' });
    expect(await carStatus).toMatchObject({ carId: car.id, status: 'pending' });

    const listed = (await api.call('GET', '/api/cars?limit=50&sort=price-high', undefined)).json().data.cars as { id: number }[];
    expect(listed.map((c) => c.id)).not.toContain(car.id);
    const bid = await api.call('POST', '/api/bids', rival, { carId: car.id, amount: car.price });
    expect(bid.statusCode).toBe(409);
    expect(bid.json().code).toBe('CAR_NOT_AVAILABLE');
    const another = await api.place(await createUser(t), car);
    expect(another.statusCode).toBe(409);
    expect(another.json().code).toBe('CAR_NOT_AVAILABLE');
  });

  it('sells at the asking price only', async () => {
    const { buyer, seller } = await parties();
    const car = await createListing(t, seller, { price: 80_000 });
    const res = await api.call('POST', '/api/orders', buyer, { carId: car.id, amount: 79_000 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PRICE_CHANGED', details: { price: 80_000 } });
    expect(await t.database.db.select().from(orders).where(eq(orders.carId, car.id))).toEqual([]);
  });
});

describe('disputes and the operator', () => {
  it('refunds the buyer in full and lists the car again', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'disputed', buyer, seller);
    expect(order).toMatchObject({ waitingOn: 'operator' });
    expect(order.events.at(-1)).toMatchObject({ to: 'disputed', actor: 'buyer', note: 'The paint does not match the listing.' });
    const resolved = await t.app.services.orders.resolveDispute(order.id, 'refund', 'Paint damage confirmed by the inspector.');
    expect(resolved.status).toBe('refunded');
    expect(resolved.events.at(-1)).toMatchObject({ from: 'disputed', to: 'refunded', actor: 'operator', note: 'Paint damage confirmed by the inspector.' });
    const settled = await waitForOrder(t, buyer, order.id, (o) => o.refund?.status === 'settled');
    expect(settled.refund).toMatchObject({ amount: order.amount + order.escrowFee, reference: expect.stringMatching(/^SIM-RFD-/) });
    expect((await ledger(order.id)).map((p) => [p.kind, p.amount]).sort()).toEqual([
      ['charge', order.amount + order.escrowFee],
      ['refund', order.amount + order.escrowFee],
    ]);
    expect((await api.call('GET', `/api/cars/${order.carId}`, undefined)).json().data.status).toBe('active');
    await mailbox.waitFor((m) => m.to.includes(buyer.email) && m.subject.startsWith('Refund issued'));
    // A decided dispute cannot be decided again.
    await expect(t.app.services.orders.resolveDispute(order.id, 'release', 'Second thoughts')).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('releases the funds to the seller when the dispute is decided for them', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'disputed', buyer, seller);
    const resolved = await t.app.services.orders.resolveDispute(order.id, 'release', 'The car matches the listing.');
    expect(resolved.status).toBe('released');
    const settled = await waitForOrder(t, seller, order.id, (o) => o.payout?.status === 'settled');
    expect(settled.payout?.amount).toBe(order.amount);
    expect((await api.call('GET', `/api/cars/${order.carId}`, undefined)).json().data.status).toBe('sold');
  });

  it('refuses a dispute once the inspection period is over', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'inspection', buyer, seller, 'basic');
    // Hold the payout so the order stays accepted, and move the deadline into the past.
    bank.heldOrders.add(order.id);
    await t.database.db.update(orders).set({ inspectionEndsAt: sql`now() - interval '1 second'` }).where(eq(orders.id, order.id));
    const late = await api.act(buyer, order.id, 'dispute', { reason: 'Too late?' });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('DEADLINE_PASSED');
    bank.heldOrders.delete(order.id);
  });
});

describe('who may do what', () => {
  const ACTIONS = [
    { action: 'pay', body: {}, who: 'buyer', from: 'awaiting_payment' },
    { action: 'ship', body: { carrier: 'Reliable Carriers', trackingNumber: 'RC-1' }, who: 'seller', from: 'funded' },
    { action: 'confirm-delivery', body: {}, who: 'buyer', from: 'in_transit' },
    { action: 'accept', body: {}, who: 'buyer', from: 'inspection' },
    { action: 'dispute', body: { reason: 'Not as described' }, who: 'buyer', from: 'inspection' },
    { action: 'cancel', body: {}, who: 'both', from: 'awaiting_payment' },
  ] as const;
  const STATUSES = ['awaiting_payment', 'funded', 'in_transit', 'inspection', 'accepted', 'disputed', 'released', 'cancelled', 'refunded'] as const;

  it('answers every action from every status for every caller per the contract, changing nothing when refused', async () => {
    const { buyer, seller } = await parties();
    const stranger = await createUser(t);
    // A payment window and an inspection last 6 s here, less than this walk takes on a busy
    // machine: their deadlines move out of reach (a due job finding one later reschedules itself),
    // so every order stays in the status under test.
    const outOfReach = sql`now() + interval '1 day'`;
    const byStatus = new Map<string, OrderWithEvents>();
    for (const status of ['awaiting_payment', 'funded', 'in_transit', 'inspection', 'disputed', 'cancelled'] as const) {
      const order = await orderIn(t, status, buyer, seller);
      if (status === 'awaiting_payment') await t.database.db.update(orders).set({ paymentDueAt: outOfReach }).where(eq(orders.id, order.id));
      if (status === 'inspection') await t.database.db.update(orders).set({ inspectionEndsAt: outOfReach }).where(eq(orders.id, order.id));
      byStatus.set(status, order);
    }
    // accepted: the payout is held back so the order waits there.
    const toAccept = await orderIn(t, 'inspection', buyer, seller);
    bank.heldOrders.add(toAccept.id);
    expect((await api.act(buyer, toAccept.id, 'accept')).json().data.status).toBe('accepted');
    byStatus.set('accepted', toAccept);
    const toRelease = await orderIn(t, 'inspection', buyer, seller);
    await api.act(buyer, toRelease.id, 'accept');
    byStatus.set('released', await waitForOrder(t, buyer, toRelease.id, (o) => o.status === 'released'));
    const toRefund = await orderIn(t, 'disputed', buyer, seller);
    byStatus.set('refunded', await t.app.services.orders.resolveDispute(toRefund.id, 'refund', 'test'));

    for (const status of STATUSES) {
      const order = byStatus.get(status)!;
      for (const { action, body, who, from } of ACTIONS) {
        const callers: [string, SignedInUser | undefined][] = [
          ['signed out', undefined],
          ['stranger', stranger],
          ['buyer', buyer],
          ['seller', seller],
        ];
        for (const [name, caller] of callers) {
          // Only refusals here: the one allowed move per status is exercised by the flows above.
          const allowed = from === status && (who === 'both' ? name === 'buyer' || name === 'seller' : who === name);
          if (allowed) continue;
          const before = await t.database.db.select({ n: count() }).from(orderEvents).where(eq(orderEvents.orderId, order.id));
          const res = await api.act(caller, order.id, action, body);
          const label = `${name} ${action} on ${status}`;
          if (name === 'signed out') expect(res.statusCode, label).toBe(401);
          else if (name === 'stranger') expect(res.statusCode, label).toBe(404);
          else if (who !== 'both' && who !== name) expect([res.statusCode, res.json().code], label).toEqual([403, 'NOT_ALLOWED']);
          else expect([res.statusCode, res.json().code, res.json().details], label).toEqual([409, 'INVALID_TRANSITION', { status }]);
          const after = await t.database.db.select({ n: count() }).from(orderEvents).where(eq(orderEvents.orderId, order.id));
          expect(after, label).toEqual(before);
        }
      }
      const [row] = await t.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
      expect(row!.status).toBe(status);
    }
    bank.heldOrders.delete(toAccept.id);
  }, 120_000);

  it('refuses bad bodies and malformed ids with the contract errors', async () => {
    const { buyer, seller } = await parties();
    const funded = await orderIn(t, 'funded', buyer, seller);
    const inspection = await orderIn(t, 'inspection', buyer, seller);
    const cases: [number, string, object][] = [
      [funded.id, 'ship', {}],
      [funded.id, 'ship', { carrier: 'UPS' }],
      [funded.id, 'ship', { carrier: '', trackingNumber: 'X' }],
      [funded.id, 'ship', { carrier: '   ', trackingNumber: 'X' }],
      [funded.id, 'ship', { carrier: 'x'.repeat(101), trackingNumber: 'X' }],
      [funded.id, 'ship', { carrier: 'UPS', trackingNumber: 'X', status: 'released' }],
      [inspection.id, 'dispute', {}],
      [inspection.id, 'dispute', { reason: '' }],
      [inspection.id, 'dispute', { reason: 'x'.repeat(2_001) }],
      [inspection.id, 'accept', { amount: 1 }],
    ];
    for (const [id, action, body] of cases) {
      const caller = action === 'ship' ? seller : buyer;
      const res = await api.act(caller, id, action, body);
      expect([res.statusCode, res.json().code], `${action} ${JSON.stringify(body)}`).toEqual([400, 'VALIDATION_FAILED']);
    }
    const awaiting = await orderIn(t, 'awaiting_payment', buyer, seller);
    expect((await api.act(buyer, awaiting.id, 'pay', { method: 'bitcoin' })).statusCode).toBe(400);
    for (const id of ['abc', '0', '-1', '99999999999', '2147483648']) {
      expect((await api.call('POST', `/api/orders/${id}/pay`, buyer, {})).statusCode, id).toBe(404);
      expect((await api.call('GET', `/api/orders/${id}`, buyer)).statusCode, id).toBe(404);
    }
    expect((await api.get(buyer, 2_147_483_647)).statusCode).toBe(404);
    for (const order of [funded, inspection, awaiting]) {
      expect((await api.get(buyer, order.id)).json().data.events).toEqual(order.events);
    }
  });

  it('lets the buyer act without a body where none is needed', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const res = await t.app.inject({ method: 'POST', url: `/api/orders/${order.id}/pay`, headers: buyer.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.payment.method).toBe('wire');
  });
});

describe('concurrency and retries', () => {
  it('moves an order once under 20 simultaneous accepts: one event, one payout', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'inspection', buyer, seller);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.act(buyer, order.id, 'accept')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'INVALID_TRANSITION')).toBe(true);
    const released = await waitForOrder(t, buyer, order.id, (o) => o.status === 'released');
    expect(released.events.filter((e) => e.to === 'accepted')).toHaveLength(1);
    expect(released.events.filter((e) => e.to === 'released')).toHaveLength(1);
    expect((await ledger(order.id)).filter((p) => p.kind === 'payout')).toHaveLength(1);
    expect(bank.payoutCalls.get(order.id)).toBe(1);
  });

  it('charges once under 20 simultaneous payments', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.act(buyer, order.id, 'pay')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect((await ledger(order.id)).filter((p) => p.kind === 'charge')).toHaveLength(1);
    const [events] = await t.database.db.select({ n: count() }).from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, 'funded')));
    expect(events!.n).toBe(1);
  });

  it('answers a repeated Idempotency-Key with the first result and refuses it for a different request', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'funded', buyer, seller);
    const headers = { 'idempotency-key': `ship-${order.id}` };
    const body = { carrier: 'Intercity Lines', trackingNumber: 'IL-1' };
    const first = await api.act(seller, order.id, 'ship', body, headers);
    const again = await api.act(seller, order.id, 'ship', body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await api.act(seller, order.id, 'ship', { ...body, trackingNumber: 'IL-2' }, headers);
    expect(different.statusCode).toBe(422);
    expect(different.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Concurrent first uses of one key: one move, every caller gets its result.
    const next = await orderIn(t, 'in_transit', buyer, seller);
    const key = { 'idempotency-key': `deliver-${next.id}` };
    const racing = await Promise.all(Array.from({ length: 10 }, () => api.act(buyer, next.id, 'confirm-delivery', {}, key)));
    expect(racing.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(racing.map((r) => r.body)).size).toBe(1);
    // Placing an order with a key twice opens one order.
    const car = await createListing(t, seller);
    const placeKey = { 'idempotency-key': `place-${car.id}` };
    const a = await api.call('POST', '/api/orders', buyer, { carId: car.id, amount: car.price }, placeKey);
    const b = await api.call('POST', '/api/orders', buyer, { carId: car.id, amount: car.price }, placeKey);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.json().data.id).toBe(a.json().data.id);
  });
});

describe('the database', () => {
  it('refuses every status change the lifecycle table does not allow', async () => {
    const { buyer, seller } = await parties();
    const order = await orderIn(t, 'awaiting_payment', buyer, seller);
    const { ORDER_STATUSES, ORDER_TRANSITIONS } = await import('@common/order-lifecycle.ts');
    const allowed = new Set(ORDER_TRANSITIONS.map((tr) => `${tr.from}>${tr.to}`));
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (from === to) continue;
        // Rolled back either way, so every pair starts from `from`.
        const outcome = await t.database.db
          .transaction(async (tx) => {
            await tx.execute(sql`alter table orders disable trigger orders_status_guard`);
            await tx.update(orders).set({ status: from }).where(eq(orders.id, order.id));
            await tx.execute(sql`alter table orders enable trigger orders_status_guard`);
            await tx.update(orders).set({ status: to }).where(eq(orders.id, order.id));
            throw new Error('accepted');
          })
          .catch((error: Error) => (error.message === 'accepted' ? 'accepted' : 'refused'));
        expect(outcome, `${from} → ${to}`).toBe(allowed.has(`${from}>${to}`) ? 'accepted' : 'refused');
      }
    }
    await expect(
      t.database.db.insert(orders).values({ carId: order.carId, buyerId: buyer.id, sellerId: order.sellerId, amount: 1, plan: 'basic', escrowFee: 199, status: 'released', paymentDueAt: new Date(), inspectionDays: 3 }),
    ).rejects.toThrow();
  });

  it('never lets two orders for one car hold money', async () => {
    const { buyer, seller } = await parties();
    const car = await createListing(t, seller);
    const first = (await api.place(buyer, car)).json().data as OrderWithEvents;
    const second = (await api.place(await createUser(t), car)).json().data as OrderWithEvents;
    await t.database.db.update(orders).set({ status: 'funded' }).where(eq(orders.id, first.id));
    await expect(t.database.db.update(orders).set({ status: 'funded' }).where(eq(orders.id, second.id))).rejects.toThrow();
    const [row] = await t.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, second.id));
    expect(row!.status).toBe('awaiting_payment');
  });
});

describe('OpenAPI', () => {
  it('documents every escrow endpoint with the errors it can answer', async () => {
    const doc = (await api.call('GET', '/docs/json', undefined)).json();
    const codes = (response: { content: Record<string, { schema: { properties: { code: { enum: string[] } } } }> }) => response.content['application/json']!.schema.properties.code.enum;
    for (const action of ['pay', 'ship', 'confirm-delivery', 'accept', 'dispute', 'cancel']) {
      const operation = doc.paths[`/api/orders/{id}/${action}`]?.post;
      expect(operation, action).toBeDefined();
      // Only paying moves money, so only it can be declined.
      const statuses = ['200', '400', '401', ...(action === 'pay' ? ['402'] : []), '403', '404', '409', '413', '415', '422', '500', '503'];
      expect(Object.keys(operation.responses).sort(), action).toEqual(statuses);
      expect(codes(operation.responses['409']), action).toEqual(expect.arrayContaining(['INVALID_TRANSITION', 'IDEMPOTENCY_KEY_IN_USE']));
      // Either party may cancel; every other move is one party's, refused to the other.
      expect(codes(operation.responses['403']).sort(), action).toEqual(action === 'cancel' ? ['EMAIL_NOT_VERIFIED'] : ['EMAIL_NOT_VERIFIED', 'NOT_ALLOWED']);
      expect(operation.parameters.some((p: { name: string; in: string }) => p.name === 'idempotency-key' && p.in === 'header'), action).toBe(true);
    }
    expect(codes(doc.paths['/api/orders/{id}/pay'].post.responses['402'])).toEqual(['PAYMENT_DECLINED']);
    expect(codes(doc.paths['/api/orders/{id}/pay'].post.responses['409'])).toEqual(expect.arrayContaining(['DEADLINE_PASSED', 'CAR_NOT_AVAILABLE']));
    expect(Object.keys(doc.paths['/api/orders'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409', '422']));
    expect(doc.paths['/api/orders/{id}'].get.responses['200']).toBeDefined();
  });
});
