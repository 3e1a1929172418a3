import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TESTIMONIALS } from '../../db/seed/sample-data.ts';
import { requestsTo } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createListing, orderIn, waitForOrder } from '../helpers/escrow.ts';
import { TestMailbox } from '../helpers/smtp.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { createUser, makeSellerOf } from '../helpers/users.ts';

let t: TestApp;
let mailbox: TestMailbox;
let cars: { id: number; price: number }[];

beforeAll(async () => {
  mailbox = new TestMailbox();
  t = await startTestApp({ SMTP_URL: await mailbox.start() });
  await t.listen();
  cars = (await t.app.inject({ method: 'GET', url: '/api/cars?limit=50' })).json().data.cars;
});
afterAll(async () => {
  await t?.close();
  await mailbox?.stop();
});

const api = requestsTo(() => t);

describe('orders', () => {
  it('places an escrow order with the default plan and notifies both parties', async () => {
    const car = cars[0]!;
    const seller = await createUser(t);
    await makeSellerOf(t, car.id, seller.id);
    const buyer = await createUser(t);
    const sellerSocket = await connectSocket(t.url, { token: seller.accessToken });
    const sellerNotified = nextEvent<{ type: string; carId: number }>(sellerSocket, 'notification:new');
    const res = await api('POST', '/api/orders', buyer, { carId: car.id, amount: car.price });
    expect(res.statusCode).toBe(201);
    const { events, ...order } = res.json().data;
    expect(order).toMatchObject({
      id: expect.any(Number),
      carId: car.id,
      buyerId: buyer.id,
      sellerId: expect.any(Number),
      amount: car.price,
      plan: 'premium',
      escrowFee: 399,
      status: 'awaiting_payment',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      paymentDueAt: expect.any(String),
      inspectionDays: 7,
      inspectionEndsAt: null,
      shipment: null,
      payment: null,
    });
    expect(events).toHaveLength(1);
    expect(await sellerNotified).toMatchObject({ type: 'system', carId: car.id });
    sellerSocket.close();
    const buyerNotes = (await api('GET', '/api/notifications', buyer)).json().data.notifications;
    expect(buyerNotes[0]).toMatchObject({ type: 'system', carId: car.id });

    // Both parties see it; anyone else is told it does not exist.
    expect((await api('GET', '/api/orders', buyer)).json().data.orders.map((o: { id: number }) => o.id)).toContain(order.id);
    expect((await api('GET', '/api/orders', seller)).json().data.orders.map((o: { id: number }) => o.id)).toContain(order.id);
    expect((await api('GET', `/api/orders/${order.id}`, buyer)).json().data).toEqual({ ...order, events });
    expect((await api('GET', `/api/orders/${order.id}`, seller)).statusCode).toBe(200);
    const stranger = await createUser(t);
    expect((await api('GET', `/api/orders/${order.id}`, stranger)).statusCode).toBe(404);
    expect((await api('GET', '/api/orders', stranger)).json().data.orders).toEqual([]);
    expect((await api('GET', '/api/orders/abc', buyer)).statusCode).toBe(404);

    // A second open order for the same car by the same buyer is refused.
    expect((await api('POST', '/api/orders', buyer, { carId: car.id, amount: car.price })).json().code).toBe('ORDER_EXISTS');
  });

  it.each([
    ['basic', 199, 100_000],
    ['premium', 399, 500_000],
    ['platinum', 799, 1_000_000],
  ] as const)('charges the %s plan fee and enforces its limit', async (plan, fee, limit) => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const atLimitCar = await createListing(t, seller, { price: limit });
    const atLimit = await api('POST', '/api/orders', buyer, { carId: atLimitCar.id, amount: limit, plan });
    expect(atLimit.statusCode).toBe(201);
    expect(atLimit.json().data).toMatchObject({ plan, escrowFee: fee, amount: limit });
    const overCar = await createListing(t, seller, { price: limit + 1 });
    const over = await api('POST', '/api/orders', buyer, { carId: overCar.id, amount: limit + 1, plan });
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('VALIDATION_FAILED');
  });

  it('refuses bad input, the seller, visitors and unverified users', async () => {
    const car = cars[2]!;
    const buyer = await createUser(t);
    for (const payload of [{ carId: car.id, amount: 0 }, { carId: car.id, amount: -1 }, { carId: car.id, amount: 1.5 }, { carId: car.id, amount: '100' }, { carId: car.id, amount: 100, plan: 'gold' }, { carId: car.id, amount: 100, status: 'released' }]) {
      expect((await api('POST', '/api/orders', buyer, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await api('POST', '/api/orders', buyer, { carId: 999_999, amount: 100 })).statusCode).toBe(404);
    expect((await api('POST', '/api/orders', undefined, { carId: car.id, amount: 100 })).statusCode).toBe(401);
    const seller = await createUser(t);
    await makeSellerOf(t, car.id, seller.id);
    const own = await api('POST', '/api/orders', seller, { carId: car.id, amount: 100 });
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('CANNOT_BUY_OWN_CAR');
  });
});

describe('testimonials', () => {
  it('lists the seeded testimonials newest first with statistics computed on the server', async () => {
    const res = await api('GET', '/api/testimonials');
    expect(res.statusCode).toBe(200);
    const { testimonials, stats } = res.json().data;
    expect(testimonials.length).toBeGreaterThanOrEqual(SAMPLE_TESTIMONIALS.length);
    const dates = testimonials.map((x: { date: string }) => x.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const ratings = testimonials.map((x: { rating: number }) => x.rating);
    expect(stats).toEqual({
      count: testimonials.length,
      averageRating: Math.round((ratings.reduce((a: number, b: number) => a + b, 0) / ratings.length) * 10) / 10,
      verifiedCount: testimonials.filter((x: { verified: boolean }) => x.verified).length,
      satisfaction: Math.round((ratings.filter((r: number) => r >= 4).length / ratings.length) * 100),
    });
  });

  it('lets a verified user share an experience; verified is decided by the server', async () => {
    const author = await createUser(t, { name: 'Taylor Reed' });
    const res = await api('POST', '/api/testimonials', author, { rating: 4, comment: 'Smooth purchase and a helpful inspection report.', carPurchased: '2021 Audi R8', location: 'Denver, CO' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ customerName: 'Taylor Reed', rating: 4, verified: false, carPurchased: '2021 Audi R8', location: 'Denver, CO', purchaseAmount: null });
    const sent = await api('POST', '/api/testimonials', author, { rating: 5, comment: 'Trying to mark myself verified here.', verified: true });
    expect(sent.statusCode).toBe(400);

    // Once an escrow order of theirs has been released, their testimonials are verified.
    const buyer = await createUser(t);
    const order = await orderIn(t, 'inspection', buyer, await createUser(t));
    await api('POST', `/api/orders/${order.id}/accept`, buyer);
    await waitForOrder(t, buyer, order.id, (o) => o.status === 'released');
    const verified = await api('POST', '/api/testimonials', buyer, { rating: 5, comment: 'Funds were released only after I approved the car.' });
    expect(verified.json().data).toMatchObject({ verified: true, purchaseAmount: order.amount });
    const after = (await api('GET', '/api/testimonials')).json().data;
    expect(after.testimonials[0].id).toBe(verified.json().data.id);
  });

  it.each([{ rating: 0, comment: 'Long enough comment' }, { rating: 6, comment: 'Long enough comment' }, { rating: 4.5, comment: 'Long enough comment' }, { rating: 5, comment: 'too short' }, { rating: 5, comment: 'x'.repeat(2_001) }, { rating: 5 }])(
    'validates %j',
    async (payload) => {
      const author = await createUser(t);
      expect((await api('POST', '/api/testimonials', author, payload)).statusCode).toBe(400);
    },
  );

  it('needs a signed-in user', async () => {
    expect((await api('POST', '/api/testimonials', undefined, { rating: 5, comment: 'Anonymous praise here' })).statusCode).toBe(401);
  });
});

describe('support tickets', () => {
  it('files a visitor ticket with defaults, a readable reference and a confirmation email', async () => {
    const res = await api('POST', '/api/support/tickets', undefined, { subject: 'Shipping to Hawaii', message: 'Do you arrange shipping?', email: 'Visitor@Example.com' });
    expect(res.statusCode).toBe(201);
    const ticket = res.json().data;
    expect(ticket).toMatchObject({ subject: 'Shipping to Hawaii', category: 'general', priority: 'normal', status: 'open', email: 'visitor@example.com' });
    expect(ticket.id).toMatch(/^LM-[2-9A-HJKMNP-Z]{6}$/);
    const mail = await mailbox.waitFor((m) => m.to.includes('visitor@example.com'));
    expect(mail.subject).toContain(ticket.id);
  });

  it('files as the signed-in user', async () => {
    const user = await createUser(t);
    const res = await api('POST', '/api/support/tickets', user, { subject: 'Escrow question', message: 'When is the fee charged?', category: 'escrow', priority: 'high' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ category: 'escrow', priority: 'high', email: user.email });
  });

  it.each([
    { message: 'No subject' , email: 'a@example.com' },
    { subject: 'No message', email: 'a@example.com' },
    { subject: '   ', message: 'Blank subject', email: 'a@example.com' },
    { subject: 'No email', message: 'Visitors must give one' },
    { subject: 'Bad category', message: 'x', category: 'refunds', email: 'a@example.com' },
    { subject: 'Bad priority', message: 'x', priority: 'asap', email: 'a@example.com' },
    { subject: 'x'.repeat(151), message: 'x', email: 'a@example.com' },
  ])('validates %j', async (payload) => {
    const res = await api('POST', '/api/support/tickets', undefined, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('watchlist', () => {
  it('adds idempotently, lists in the listing shape per user, and removes', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const [a, b] = [cars[4]!, cars[5]!];
    expect((await api('POST', '/api/watchlist', user, { carId: a.id })).statusCode).toBe(201);
    expect((await api('POST', '/api/watchlist', user, { carId: a.id })).statusCode).toBe(200);
    expect((await api('POST', '/api/watchlist', user, { carId: b.id })).statusCode).toBe(201);
    const listed = (await api('GET', '/api/watchlist', user)).json().data.cars;
    expect(listed.map((c: { id: number }) => c.id)).toEqual([b.id, a.id]);
    expect(Object.keys(listed[0]).sort()).toEqual(Object.keys(cars[0]!).sort());
    expect((await api('GET', '/api/watchlist', other)).json().data.cars).toEqual([]);
    expect((await api('DELETE', `/api/watchlist/${a.id}`, user)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/watchlist/${a.id}`, user)).statusCode).toBe(200);
    expect((await api('GET', '/api/watchlist', user)).json().data.cars.map((c: { id: number }) => c.id)).toEqual([b.id]);
    expect((await api('POST', '/api/watchlist', user, { carId: 999_999 })).statusCode).toBe(404);
    expect((await api('GET', '/api/watchlist')).statusCode).toBe(401);
  });
});

describe('dashboard', () => {
  it('counts the user’s own bids, watchlist and messages and lists recent activity newest first', async () => {
    const user = await createUser(t);
    const car = cars[6]!;
    await api('POST', '/api/watchlist', user, { carId: car.id });
    await api('POST', '/api/chat', user, { carId: car.id, message: 'Any paint correction done?' });
    const detail = (await api('GET', `/api/cars/${car.id}`)).json().data;
    const minimum = detail.highestBid === null ? Math.ceil((detail.price * 0.5) / 100) * 100 : detail.highestBid + 5_000;
    expect((await api('POST', '/api/bids', user, { carId: car.id, amount: minimum + 5_000 })).statusCode).toBe(201);
    const res = await api('GET', '/api/users/dashboard', user);
    expect(res.statusCode).toBe(200);
    const { stats, recentActivity } = res.json().data;
    expect(stats).toMatchObject({ activeBids: 1, watchlist: 1, messages: 1 });
    expect(stats.activity).toBe(recentActivity.length);
    expect(recentActivity.map((a: { type: string }) => a.type)).toEqual(expect.arrayContaining(['bid', 'message']));
    const times = recentActivity.map((a: { timestamp: string }) => a.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    const discussions = (await api('GET', '/api/chat/user', user)).json().data.discussions;
    expect(discussions[0]).toMatchObject({ car: { id: car.id }, messageCount: 2 });
    const fresh = await createUser(t);
    expect((await api('GET', '/api/users/dashboard', fresh)).json().data).toEqual({ stats: { activeBids: 0, watchlist: 0, messages: 0, activity: 0 }, recentActivity: [] });
  });
});

describe('OpenAPI', () => {
  it('documents the new routes with schemas and examples', async () => {
    const doc = (await api('GET', '/docs/json')).json();
    for (const path of ['/api/orders', '/api/orders/{id}', '/api/testimonials', '/api/support/tickets', '/api/watchlist', '/api/watchlist/{carId}', '/api/users/dashboard']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const create = doc.paths['/api/orders'].post;
    expect(create.requestBody.content['application/json'].example).toEqual({ carId: 3, amount: 189_500, plan: 'premium' });
    expect(create.responses['201']).toBeDefined();
  });
});

describe('popular order', () => {
  it('moves a car up as soon as it gets bids', async () => {
    const before = (await api('GET', '/api/cars?sort=popular&limit=50')).json().data.cars as { id: number; price: number; current_bids: number }[];
    const last = before.at(-1)!;
    const [first, second] = [await createUser(t), await createUser(t)];
    const most = Math.max(...before.map((c) => c.current_bids));
    let amount = last.price;
    for (let i = 0; i <= most; i++) {
      const bidder = i % 2 === 0 ? first : second;
      expect((await api('POST', '/api/bids', bidder, { carId: last.id, amount })).statusCode).toBe(201);
      amount += 10_000;
    }
    const after = (await api('GET', '/api/cars?sort=popular&limit=50')).json().data.cars as { id: number }[];
    expect(after[0]!.id).toBe(last.id);
  });
});
