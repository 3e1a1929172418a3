import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cars, orderEvents, orders, payments, sellers, users } from '../../db/schema/index.ts';
import { carSearchText } from '../../db/search-text.ts';
import {
  FUNDED_ORDER_STATUSES,
  ORDER_TRANSITIONS,
  PARTY_ACTIONS,
  transitionFor,
  type OperatorAction,
  type OrderStatus,
  type PartyAction,
} from '@common/order-lifecycle.ts';
import { EventBus } from '../../server/src/lib/events.ts';
import { AppError } from '../../server/src/lib/errors.ts';
import { JobRunner } from '../../server/src/jobs/job-runner.ts';
import { Mailer } from '../../server/src/services/mailer.ts';
import { createOrdersService, type OrderDeadline, type OrdersService } from '../../server/src/services/orders/orders-service.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * A model of the escrow lifecycle, driven with random sequences of the parties' moves, clock
 * advances (a deadline passing and its job running), payment jobs and operator decisions. After
 * every step the real service must agree with the model and keep the invariants: an order's
 * status is its last event's; no event outside the lifecycle table; money in equals money out
 * once an order is settled; a car sold (or held) for at most one order.
 *
 * The service runs without job workers here, so the model decides when due work runs.
 */

type CarState = 'active' | 'pending' | 'sold';
interface ModelOrder {
  id: number;
  car: number;
  buyer: number;
  status: OrderStatus;
  /** The payout or refund written at acceptance or resolution, and whether it has moved. */
  disbursement: 'none' | 'pending' | 'settled';
  /** Deadlines the clock has passed. */
  paymentOverdue: boolean;
  inspectionOver: boolean;
}
interface Model {
  orders: ModelOrder[];
  cars: CarState[];
}
interface Real {
  service: OrdersService;
  buyers: number[];
  sellers: number[];
  cars: { id: number; price: number }[];
}

const CARS = 3;
const BUYERS = 3;

let database: TestDatabase;
let jobs: JobRunner;
let service: OrdersService;
let run = 0;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  const log = pino({ level: 'silent' });
  jobs = new JobRunner(database, { log, pollSeconds: 60, runWorkers: false });
  service = createOrdersService({
    db: database.db,
    jobs,
    mailer: new Mailer(jobs, database.db, null, 'test@example.com', log),
    events: new EventBus(),
    log,
    escrowDaySeconds: 86_400,
    appUrl: 'http://localhost',
  });
  await jobs.start();
});
afterAll(async () => {
  await jobs?.stop();
  await database?.close();
});

/** Fresh accounts and cars for one run, so runs never see each other's orders. */
async function setup(): Promise<Real> {
  run += 1;
  const db = database.db;
  const people = await db
    .insert(users)
    .values(Array.from({ length: BUYERS + CARS }, (_, i) => ({ email: `model-${run}-${i}@example.com`, name: `Person ${run}.${i}`, emailVerified: true })))
    .returning({ id: users.id });
  const sellerUsers = people.slice(BUYERS);
  const profiles = await db
    .insert(sellers)
    .values(sellerUsers.map((u, i) => ({ userId: u.id, name: `Seller ${run}.${i}` })))
    .returning({ id: sellers.id });
  const carRows = await db
    .insert(cars)
    .values(
      profiles.map((p, i) => ({
        sellerId: p.id,
        make: 'Model',
        model: `Run ${run} Car ${i}`,
        year: 2021,
        price: 50_000 + i * 10_000,
        marketValue: 60_000,
        marketValueBasis: 'reference' as const,
        mileage: 1_000,
        condition: 'Excellent' as const,
        bodyStyle: 'sedan' as const,
        color: '#000000',
        location: 'Test',
        searchText: carSearchText({ make: 'Model', model: `Run ${run} Car ${i}` }),
      })),
    )
    .returning({ id: cars.id, price: cars.price });
  return { service, buyers: people.slice(0, BUYERS).map((u) => u.id), sellers: sellerUsers.map((u) => u.id), cars: carRows };
}

async function outcome<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code };
    throw error;
  }
}

/** Moves the model's order and its car as the lifecycle says a successful move does. */
function applyToModel(m: Model, order: ModelOrder, to: OrderStatus): void {
  order.status = to;
  if (to === 'funded') {
    m.cars[order.car] = 'pending';
    for (const other of m.orders) if (other !== order && other.car === order.car && other.status === 'awaiting_payment') other.status = 'cancelled';
  }
  if (to === 'accepted' || to === 'refunded') order.disbursement = 'pending';
  if (to === 'released') {
    m.cars[order.car] = 'sold';
    if (order.disbursement === 'none') order.disbursement = 'pending';
  }
  if (to === 'refunded') m.cars[order.car] = 'active';
}

class PlaceOrder implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly buyer: number,
    readonly car: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const car = r.cars[this.car]!;
    const result = await outcome(() => r.service.place({ userId: r.buyers[this.buyer]! }, { carId: car.id, amount: car.price, plan: 'premium' }));
    const hasOpen = m.orders.some((o) => o.car === this.car && o.buyer === this.buyer && !['released', 'cancelled', 'refunded'].includes(o.status));
    if (m.cars[this.car] !== 'active') expect(result).toEqual({ ok: false, code: 'CAR_NOT_AVAILABLE' });
    else if (hasOpen) expect(result).toEqual({ ok: false, code: 'ORDER_EXISTS' });
    else {
      expect(result.ok).toBe(true);
      if (result.ok) m.orders.push({ id: result.value.id, car: this.car, buyer: this.buyer, status: 'awaiting_payment', disbursement: 'none', paymentOverdue: false, inspectionOver: false });
    }
    await checkInvariants(m, r);
  }
  toString = () => `place(buyer ${this.buyer}, car ${this.car})`;
}

/** A step on one of the model's orders, picked by index; the invariants are checked after it. */
abstract class OrderCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.orders.length > 0;
  async run(m: Model, r: Real) {
    await this.apply(m, r, m.orders[this.pick % m.orders.length]!);
    await checkInvariants(m, r);
  }
  abstract apply(m: Model, r: Real, order: ModelOrder): Promise<void>;
}

class PartyMove extends OrderCommand {
  constructor(
    pick: number,
    readonly action: PartyAction,
    readonly asSeller: boolean,
  ) {
    super(pick);
  }
  override async apply(m: Model, r: Real, order: ModelOrder) {
    const userId = this.asSeller ? r.sellers[order.car]! : r.buyers[order.buyer]!;
    const input = { carrier: 'Carrier', trackingNumber: 'T-1', reason: 'Not as described' };
    const result = await outcome(() => r.service.act({ userId }, order.id, this.action, input));
    const role = this.asSeller ? 'seller' : 'buyer';
    const mayEver = ORDER_TRANSITIONS.some((t) => t.action === this.action && t.by.includes(role));
    const transition = transitionFor(this.action, order.status);
    const late = (this.action === 'pay' && order.paymentOverdue) || (this.action === 'dispute' && order.inspectionOver);
    if (!mayEver) expect(result).toEqual({ ok: false, code: 'NOT_ALLOWED' });
    else if (!transition) expect(result).toEqual({ ok: false, code: 'INVALID_TRANSITION' });
    else if (late) expect(result).toEqual({ ok: false, code: 'DEADLINE_PASSED' });
    else {
      expect(result.ok, JSON.stringify(result)).toBe(true);
      applyToModel(m, order, transition.to);
    }
  }
  override toString = () => `${this.asSeller ? 'seller' : 'buyer'} ${this.action}(order #${this.pick})`;
}

/** The move that carries the order forward, by the party whose turn it is (or a dispute). */
const FORWARD: Partial<Record<OrderStatus, [PartyAction, boolean]>> = {
  awaiting_payment: ['pay', false],
  funded: ['ship', true],
  in_transit: ['confirm-delivery', false],
  inspection: ['accept', false],
};

class Progress extends OrderCommand {
  constructor(
    pick: number,
    private readonly disputeInstead: boolean,
  ) {
    super(pick);
  }
  override async apply(m: Model, r: Real, order: ModelOrder) {
    const forward = FORWARD[order.status];
    if (!forward) return;
    const [action, asSeller] = order.status === 'inspection' && this.disputeInstead ? (['dispute', false] as const) : forward;
    await new PartyMove(this.pick, action, asSeller).apply(m, r, order);
  }
  override toString = () => `progress(order #${this.pick}${this.disputeInstead ? ', disputing' : ''})`;
}

/** Time passes a deadline of the order and the job for it runs (perhaps one that no longer applies). */
class DeadlinePasses extends OrderCommand {
  constructor(
    pick: number,
    readonly deadline: OrderDeadline,
  ) {
    super(pick);
  }
  override async apply(m: Model, r: Real, order: ModelOrder) {
    const past = sql`now() - interval '1 second'`;
    if (this.deadline.startsWith('payment')) {
      await database.db.update(orders).set({ paymentDueAt: past }).where(eq(orders.id, order.id));
      order.paymentOverdue = true;
    } else if (order.status === 'inspection') {
      await database.db.update(orders).set({ inspectionEndsAt: past }).where(eq(orders.id, order.id));
      order.inspectionOver = true;
    }
    await r.service.runDeadline({ orderId: order.id, deadline: this.deadline });
    if (this.deadline === 'payment-window' && order.status === 'awaiting_payment') applyToModel(m, order, 'cancelled');
    if (this.deadline === 'inspection-period' && order.status === 'inspection') applyToModel(m, order, 'accepted');
  }
  override toString = () => `deadline ${this.deadline}(order #${this.pick})`;
}

class PaymentJobRuns extends OrderCommand {
  override async apply(m: Model, r: Real, order: ModelOrder) {
    await r.service.settle({ orderId: order.id });
    if (order.disbursement === 'pending') {
      order.disbursement = 'settled';
      if (order.status === 'accepted') applyToModel(m, order, 'released');
    }
  }
  override toString = () => `settle(order #${this.pick})`;
}

class OperatorDecides extends OrderCommand {
  constructor(
    pick: number,
    readonly decision: OperatorAction,
  ) {
    super(pick);
  }
  override async apply(m: Model, r: Real, order: ModelOrder) {
    const result = await outcome(() => r.service.resolveDispute(order.id, this.decision, 'model'));
    const transition = transitionFor(this.decision, order.status);
    if (!transition) expect(result).toEqual({ ok: false, code: 'INVALID_TRANSITION' });
    else {
      expect(result.ok).toBe(true);
      applyToModel(m, order, transition.to);
    }
  }
  override toString = () => `operator ${this.decision}(order #${this.pick})`;
}

async function checkInvariants(m: Model, r: Real): Promise<void> {
  const ids = m.orders.map((o) => o.id);
  const carIds = r.cars.map((c) => c.id);
  const [rows, events, ledger, carRows] = await Promise.all([
    ids.length ? database.db.select().from(orders).where(inArray(orders.id, ids)) : Promise.resolve([]),
    ids.length ? database.db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(orderEvents.id) : Promise.resolve([]),
    ids.length ? database.db.select().from(payments).where(inArray(payments.orderId, ids)) : Promise.resolve([]),
    database.db.select({ id: cars.id, status: cars.status }).from(cars).where(inArray(cars.id, carIds)),
  ]);
  const allowed = new Set(ORDER_TRANSITIONS.map((t) => `${t.from}>${t.to}`));
  for (const modelOrder of m.orders) {
    const row = rows.find((o) => o.id === modelOrder.id)!;
    // The service agrees with the model.
    expect(row.status, `order ${row.id}`).toBe(modelOrder.status);
    // The status is the last event's, and every event is a move of the table.
    const history = events.filter((e) => e.orderId === row.id);
    expect(history.at(-1)!.toStatus).toBe(row.status);
    expect(history[0]).toMatchObject({ fromStatus: null, toStatus: 'awaiting_payment' });
    for (const event of history.slice(1)) expect(allowed.has(`${event.fromStatus}>${event.toStatus}`), `${event.fromStatus}>${event.toStatus}`).toBe(true);
    // Money in equals money out.
    const legs = ledger.filter((p) => p.orderId === row.id);
    const sum = (kinds: string[], settledOnly = true) => legs.filter((p) => kinds.includes(p.kind) && (!settledOnly || p.status === 'settled')).reduce((n, p) => n + p.amount, 0);
    const charged = sum(['charge']);
    expect(legs.filter((p) => p.kind === 'charge').length).toBeLessThanOrEqual(1);
    expect(legs.filter((p) => p.kind === 'payout' || p.kind === 'refund').length).toBeLessThanOrEqual(1);
    const paidOut = sum(['payout', 'fee', 'refund']);
    expect(paidOut).toBeLessThanOrEqual(charged);
    if (row.status === 'awaiting_payment' || row.status === 'cancelled') expect(legs).toEqual([]);
    else expect(charged).toBe(row.amount + row.escrowFee);
    if (modelOrder.disbursement === 'settled') expect(paidOut).toBe(charged);
    if (modelOrder.disbursement !== 'settled') expect(paidOut).toBe(0);
    expect(legs.some((p) => p.status === 'pending')).toBe(modelOrder.disbursement === 'pending');
  }
  // A car is held or sold for one order at most, and its status follows from its orders.
  for (const [index, car] of r.cars.entries()) {
    const holding = rows.filter((o) => o.carId === car.id && (FUNDED_ORDER_STATUSES as readonly string[]).includes(o.status));
    expect(holding.length).toBeLessThanOrEqual(1);
    expect(carRows.find((c) => c.id === car.id)!.status).toBe(m.cars[index]);
    expect(rows.filter((o) => o.carId === car.id && o.status === 'released').length).toBeLessThanOrEqual(1);
  }
}

// Weighted so that random sequences get far into the lifecycle, not only refusals.
const commands = [
  { weight: 3, arbitrary: fc.tuple(fc.nat(BUYERS - 1), fc.nat(CARS - 1)).map(([buyer, car]) => new PlaceOrder(buyer, car)) },
  { weight: 6, arbitrary: fc.tuple(fc.nat(20), fc.boolean()).map(([pick, dispute]) => new Progress(pick, dispute)) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(20), fc.constantFrom(...PARTY_ACTIONS), fc.boolean()).map(([pick, action, asSeller]) => new PartyMove(pick, action, asSeller)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat(20), fc.constantFrom<OrderDeadline>('payment-window', 'payment-reminder', 'inspection-period', 'inspection-reminder'))
      .map(([pick, d]) => new DeadlinePasses(pick, d)),
  },
  { weight: 2, arbitrary: fc.nat(20).map((pick) => new PaymentJobRuns(pick)) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(20), fc.constantFrom<OperatorAction>('refund', 'release')).map(([pick, d]) => new OperatorDecides(pick, d)) },
].map(({ weight, arbitrary }) => Array<typeof arbitrary>(weight).fill(arbitrary)).flat();

describe('escrow lifecycle model', () => {
  it('keeps every invariant under random sequences of moves, deadlines, payouts and decisions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: 'max' }), async (cmds) => {
        const real = await setup();
        await fc.asyncModelRun(() => ({ model: { orders: [], cars: Array<CarState>(CARS).fill('active') }, real }), cmds);
      }),
      { numRuns: Number(process.env.MODEL_RUNS ?? 40) },
    );
  }, 600_000);
});
