import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor, Transaction } from '../../db/client.ts';
import { cars } from '../../db/schema/index.ts';
import { CAR_STATUSES, CAR_STATUS_MOVES, HIDDEN_CAR_STATUS_MOVES, INITIAL_CAR_STATUSES, type CarPosition, type CarStatus } from '@common/car-lifecycle.ts';
import { lockCarPosition, moveCar } from '../../server/src/services/car-transitions.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { errorMessages } from '../helpers/database-errors.ts';
import { createListing, orderApi, orderIn } from '../helpers/escrow.ts';
import { apiCalls, createStaff, type StaffUser } from '../helpers/staff.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * The database's own guard on a car's status (db/migrations/0017_car_lifecycle_guard.sql, trigger
 * `cars_status_guard`) against the lifecycle table the server applies (common/car-lifecycle.ts):
 * a statement that bypasses the server still cannot move a car where the table does not; and the
 * services, moving cars only through that table, refuse what it refuses and change nothing.
 */

let t: TestApp;
let seller: SignedInUser;
let operator: StaffUser;
/** The car every database attempt starts from (each attempt is rolled back). */
let carId: number;

beforeAll(async () => {
  t = await startTestApp();
  [seller, operator] = await Promise.all([createUser(t, { name: 'Sam Seller' }), createStaff(t, 'operator', { name: 'Otto Operator' })]);
  carId = (await createListing(t, seller, { price: 120_000 })).id;
});
afterAll(async () => {
  await t?.close();
});

const visible = CAR_STATUSES.filter((status) => status !== 'hidden');
const pairs = (moves: readonly (readonly [CarStatus, CarStatus])[]) => new Set(moves.map(([from, to]) => `${from}>${to}`));

/** A car's status with the hiding columns its CHECK wants, so only the trigger can refuse. */
function position(status: CarStatus, hiddenFrom: CarStatus = 'active'): CarPosition {
  return status === 'hidden' ? { status, hiddenFromStatus: hiddenFrom, hiddenBy: 'operator' } : { status, hiddenFromStatus: null, hiddenBy: null };
}

/**
 * Puts the car at `from` with the guard switched off, then runs `change` with it on; always rolled
 * back, so every attempt starts from the same car. 'accepted' or the refusal's messages.
 */
async function attempt(from: CarPosition, change: (tx: Transaction) => Promise<unknown>): Promise<string> {
  return t.database.db
    .transaction(async (tx) => {
      await tx.execute(sql`alter table cars disable trigger cars_status_guard`);
      await tx.update(cars).set(from).where(eq(cars.id, carId));
      await tx.execute(sql`alter table cars enable trigger cars_status_guard`);
      await change(tx);
      throw new Error('accepted');
    })
    .catch((error: unknown) => (error instanceof Error && error.message === 'accepted' ? 'accepted' : `refused: ${errorMessages(error)}`));
}

const moveTo = (to: CarPosition) => (tx: Transaction) => tx.update(cars).set(to).where(eq(cars.id, carId));

describe('the cars table guards the lifecycle', () => {
  it('moves a car from one status to another exactly when the lifecycle table allows it', async () => {
    const allowed = pairs(CAR_STATUS_MOVES);
    expect([...allowed].filter((pair) => !pair.includes('hidden')).sort()).toEqual([
      'active>ended',
      'active>pending',
      'active>withdrawn',
      'draft>active',
      'draft>withdrawn',
      'ended>pending',
      'ended>withdrawn',
      'pending>active',
      'pending>sold',
    ]);
    for (const from of CAR_STATUSES) {
      for (const to of CAR_STATUSES) {
        if (from === to) continue;
        // Hidden from the status it is about to return to; hidden from the one it leaves.
        const outcome = await attempt(position(from, to === 'hidden' ? 'active' : to), moveTo(position(to, from === 'hidden' ? 'active' : from)));
        if (allowed.has(`${from}>${to}`)) expect(outcome, `${from} → ${to}`).toBe('accepted');
        // Refused by the guard itself, not by another constraint.
        else expect(outcome, `${from} → ${to}`).toMatch(new RegExp(`refused: .*car ${carId} cannot move from ${from} to ${to}`, 's'));
      }
    }
  });

  it('hides a car from its own status only, and returns it to exactly that status', async () => {
    for (const from of visible) {
      for (const other of visible) {
        if (other === from) continue;
        const hiding = await attempt(position(from), moveTo({ status: 'hidden', hiddenFromStatus: other, hiddenBy: 'operator' }));
        expect(hiding, `${from} → hidden from ${other}`).toMatch(new RegExp(`refused: .*car ${carId} is hidden from ${from}, not from ${other}`, 's'));
        const restoring = await attempt(position('hidden', from), moveTo(position(other)));
        expect(restoring, `hidden from ${from} → ${other}`).toMatch(new RegExp(`refused: .*car ${carId} was hidden from ${from} and returns to it, not to ${other}`, 's'));
      }
    }
  });

  it('moves the status a hidden car returns to only as a sale completing or refunded would', async () => {
    const allowed = pairs(HIDDEN_CAR_STATUS_MOVES);
    expect([...allowed].sort()).toEqual(['pending>active', 'pending>sold']);
    for (const from of visible) {
      for (const to of visible) {
        if (from === to) continue;
        const outcome = await attempt(position('hidden', from), moveTo(position('hidden', to)));
        if (allowed.has(`${from}>${to}`)) expect(outcome, `beneath ${from} → ${to}`).toBe('accepted');
        else expect(outcome, `beneath ${from} → ${to}`).toMatch(new RegExp(`refused: .*hidden car ${carId} cannot move from ${from} to ${to} while hidden`, 's'));
      }
    }
    // Who hid it stays as it was: an operator's hiding does not turn into a suspension's.
    const rehidden = await attempt(position('hidden', 'active'), moveTo({ status: 'hidden', hiddenFromStatus: 'active', hiddenBy: 'suspension' }));
    expect(rehidden).toMatch(new RegExp(`refused: .*hidden car ${carId} stays hidden by operator, not by suspension`, 's'));
  });

  it('lets every other change through in every status', async () => {
    for (const status of CAR_STATUSES) {
      const outcome = await attempt(position(status), (tx) => tx.update(cars).set({ price: 99_000, status }).where(eq(cars.id, carId)));
      expect(outcome, status).toBe('accepted');
    }
  });

  it('refuses a new car in any status but the initial ones', async () => {
    const [row] = await t.database.db.select().from(cars).where(eq(cars.id, carId));
    const { id: _id, createdAt: _created, updatedAt: _updated, ...values } = row!;
    for (const status of CAR_STATUSES) {
      const outcome = await attempt(position('active'), (tx) => tx.insert(cars).values({ ...values, ...position(status) }));
      if (INITIAL_CAR_STATUSES.includes(status)) expect(outcome, status).toBe('accepted');
      else expect(outcome, status).toMatch(new RegExp(`refused: .*a car is listed as a draft or active, not ${status}`, 's'));
    }
    // Nothing stayed behind: the car as it was, and no other.
    expect(await t.database.db.select().from(cars).where(eq(cars.sellerId, row!.sellerId))).toEqual([row]);
  });
});

// ── The services ────────────────────────────────────────────────────────────────────────

const sellerCall = (method: 'POST' | 'DELETE', url: string) => t.app.inject({ method, url, headers: seller.auth });

async function stored(id: number) {
  const [car] = await t.database.db
    .select({ status: cars.status, hiddenFromStatus: cars.hiddenFromStatus, hiddenBy: cars.hiddenBy, updatedAt: cars.updatedAt })
    .from(cars)
    .where(eq(cars.id, id));
  return car!;
}

/** A car of the seller's moved to `status` by direct updates the guard allows (the way there does not matter here). */
async function carIn(status: 'active' | 'sold' | 'hidden'): Promise<number> {
  const { id } = await createListing(t, seller);
  const set = (values: Partial<CarPosition>) => t.database.db.update(cars).set(values).where(eq(cars.id, id));
  if (status === 'sold') {
    await set({ status: 'pending' });
    await set({ status: 'sold' });
  }
  if (status === 'hidden') await set({ status: 'hidden', hiddenFromStatus: 'active', hiddenBy: 'operator' });
  return id;
}

async function expectUnchanged(id: number, work: () => Promise<void>): Promise<void> {
  const before = await stored(id);
  await work();
  expect(await stored(id)).toEqual(before);
}

describe('the services move cars only as the table allows', () => {
  it('refuses to withdraw a sold or a hidden car, with 409, and changes nothing', async () => {
    const sold = await carIn('sold');
    await expectUnchanged(sold, async () => {
      const res = await sellerCall('DELETE', `/api/cars/${sold}`);
      expect([res.statusCode, res.json().code, res.json().details]).toEqual([409, 'LISTING_LOCKED', { status: 'sold' }]);
    });
    const hidden = await carIn('hidden');
    await expectUnchanged(hidden, async () => {
      const res = await sellerCall('DELETE', `/api/cars/${hidden}`);
      expect([res.statusCode, res.json().code, res.json().details]).toEqual([409, 'INVALID_TRANSITION', { status: 'hidden' }]);
      expect(res.json().error).toBe(`Listing #${hidden} is hidden and cannot be withdrawn`);
    });
  });

  it('refuses to publish a car that is not a draft, with 409, and changes nothing', async () => {
    const active = await carIn('active');
    await expectUnchanged(active, async () => {
      const res = await sellerCall('POST', `/api/cars/${active}/publish`);
      expect([res.statusCode, res.json().code, res.json().details]).toEqual([409, 'NOT_A_DRAFT', { status: 'active' }]);
    });
  });

  it('refuses, in the one driver, every move the table does not make for that actor: 409 INVALID_TRANSITION', async () => {
    const sold = await carIn('sold');
    const active = await carIn('active');
    for (const [id, action, actor, message] of [
      [sold, 'withdraw', 'seller', `Listing #${sold} is sold and cannot be withdrawn`],
      [active, 'publish', 'seller', `Listing #${active} is on the market and cannot be published`],
      [active, 'withdraw', 'buyer', `Listing #${active} cannot be withdrawn by the buyer`],
      [active, 'sell', 'system', `Listing #${active} is on the market and cannot be sold`],
    ] as const) {
      await expectUnchanged(id, async () => {
        const car = (await lockCarPosition(t.database.db, id))!;
        await expect(moveCar(t.database.db, car, action, actor)).rejects.toMatchObject({ statusCode: 409, code: 'INVALID_TRANSITION', message, details: { status: car.status } });
      });
    }
  });

  it('lets exactly one of two moves made from the same reading win; the other is a 409, not an overwrite', async () => {
    const id = await carIn('active');
    // Both read the car on the market before either moved it.
    const read = (await lockCarPosition(t.database.db, id))!;
    const moves = [
      (tx: Executor) => moveCar(tx, read, 'withdraw', 'seller'),
      (tx: Executor) => moveCar(tx, read, 'hide', 'operator'),
    ];
    const results = await Promise.allSettled(moves.map((move) => t.database.db.transaction((tx) => move(tx))));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code: string; message: string }] : []));
    expect(won).toHaveLength(1);
    expect(lost).toMatchObject([{ code: 'INVALID_TRANSITION', message: `Listing #${id} changed meanwhile` }]);
    // The winner's move stands: a withdrawn car is not then hidden from `active` (to come back on
    // the market when restored), nor a hidden one withdrawn.
    const expected = won[0]!.status === 'withdrawn' ? { status: 'withdrawn', hiddenFromStatus: null } : { status: 'hidden', hiddenFromStatus: 'active' };
    expect(await stored(id)).toMatchObject(expected);
  });

  it("settles a race between the buyer's payment and the seller's withdrawal: exactly one wins", async () => {
    const buyer = await createUser(t);
    const api = orderApi(t);
    const car = await createListing(t, seller);
    const placed = await api.place(buyer, car);
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json().data.id as number;
    const [paid, withdrawn] = await Promise.all([api.act(buyer, orderId, 'pay'), sellerCall('DELETE', `/api/cars/${car.id}`)]);
    expect([paid.statusCode, withdrawn.statusCode].sort(), `${paid.body} ${withdrawn.body}`).toEqual([200, 409]);
    const order = (await api.get(buyer, orderId)).json().data;
    if (paid.statusCode === 200) {
      expect(withdrawn.json()).toMatchObject({ code: 'LISTING_LOCKED', details: { status: 'pending' } });
      expect([(await stored(car.id)).status, order.status]).toEqual(['pending', 'funded']);
    } else {
      expect(paid.json()).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'cancelled' } });
      expect([(await stored(car.id)).status, order.status]).toEqual(['withdrawn', 'cancelled']);
    }
  });

  it('completes a sale beneath a hidden car: it stays hidden and comes back sold', async () => {
    const buyer = await createUser(t);
    const admin = apiCalls(t);
    for (const [decision, returnsTo] of [
      ['release', 'sold'],
      ['refund', 'active'],
    ] as const) {
      const order = await orderIn(t, 'disputed', buyer, seller);
      const hide = await admin.post(operator, `/api/admin/cars/${order.carId}/hide`, { reason: 'Suspicious VIN' });
      expect(hide.statusCode, hide.body).toBe(200);
      const resolved = await admin.post(operator, `/api/admin/orders/${order.id}/resolve`, { outcome: decision, reason: 'Decided on the evidence' });
      expect(resolved.statusCode, resolved.body).toBe(200);
      expect(await stored(order.carId), decision).toMatchObject({ status: 'hidden', hiddenFromStatus: returnsTo, hiddenBy: 'operator' });
      const restore = await admin.post(operator, `/api/admin/cars/${order.carId}/restore`, { reason: 'VIN checked' });
      expect([restore.statusCode, restore.json().data], decision).toEqual([200, { id: order.carId, status: returnsTo }]);
    }
  });
});
