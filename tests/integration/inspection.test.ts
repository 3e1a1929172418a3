import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import type { DisputeCase } from '@common/schemas/admin.ts';
import type { CarDetail } from '@common/schemas/cars.ts';
import type { Inspection } from '@common/schemas/dossier.ts';
import type { OrderWithEvents } from '@common/schemas/orders.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { SAMPLE_DOSSIER, dossierApi } from '../helpers/dossier.ts';
import { PATH_TO, createListing, orderApi } from '../helpers/escrow.ts';
import { apiCalls, createStaff, type StaffUser } from '../helpers/staff.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

let t: TestApp;
let api: ReturnType<typeof dossierApi>;
let orders: ReturnType<typeof orderApi>;
let operator: StaffUser;

beforeAll(async () => {
  t = await startTestApp();
  api = dossierApi(t);
  orders = orderApi(t);
  operator = await createStaff(t, 'operator', { name: 'Otto Operator' });
});
afterAll(async () => {
  await t?.close();
});

/** A car with the sample dossier, ordered by a new buyer and driven to `status`. */
async function orderWithDossier(status: OrderStatus) {
  const [buyer, seller, stranger] = [await createUser(t), await createUser(t), await createUser(t)];
  const car = await createListing(t, seller);
  const put = await api.put(seller, car.id, SAMPLE_DOSSIER);
  expect(put.statusCode, put.body).toBe(200);
  const placed = await orders.place(buyer, car);
  expect(placed.statusCode, placed.body).toBe(201);
  let order: OrderWithEvents = placed.json().data;
  for (const step of PATH_TO[status] ?? []) {
    const res = await orders.act(step.by === 'buyer' ? buyer : seller, order.id, step.action, step.body ?? {});
    expect(res.statusCode, `${step.action}: ${res.body}`).toBe(200);
    order = res.json().data;
  }
  return { buyer, seller, stranger, car, order, dossier: (put.json().data as CarDetail).dossier };
}

async function checklist(user: SignedInUser, orderId: number): Promise<Inspection> {
  const res = await api.inspection(user, orderId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('the inspection checklist', () => {
  it('lets the buyer mark items during inspection; both parties and staff read it, strangers do not', async () => {
    const { buyer, seller, stranger, order, dossier } = await orderWithDossier('inspection');
    const flaw = dossier.knownFlaws[0]!;
    const record = dossier.serviceRecords[0]!;
    const res = await api.mark(buyer, order.id, [
      { itemId: flaw.id, result: 'not_as_described', note: 'The chips are a cracked bumper cover' },
      { itemId: record.id, result: 'as_described' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const marked: Inspection = res.json().data;
    expect(marked.items.find((i) => i.itemId === flaw.id)).toMatchObject({ section: 'knownFlaws', result: 'not_as_described', note: 'The chips are a cracked bumper cover' });
    expect(marked.items.find((i) => i.itemId === record.id)).toMatchObject({ section: 'serviceRecords', result: 'as_described', note: null, text: expect.stringContaining('Porsche Austin') });
    expect(marked.items.filter((i) => i.result === null)).toHaveLength(marked.items.length - 2);

    // Marking again replaces the mark.
    const again = await api.mark(buyer, order.id, [{ itemId: record.id, result: 'not_as_described', note: 'No stamp in the book' }]);
    expect(again.json().data.items.find((i: { itemId: number }) => i.itemId === record.id).result).toBe('not_as_described');

    expect(await checklist(seller, order.id)).toEqual(again.json().data);
    expect(await checklist(operator, order.id)).toEqual(again.json().data);
    expect((await api.inspection(stranger, order.id)).statusCode).toBe(404);
    expect((await api.inspection(undefined, order.id)).statusCode).toBe(401);
  });

  it('answers 403 to the seller, 404 to a stranger, 409 outside inspection, 400 for items not frozen', async () => {
    const { buyer, seller, stranger, order, dossier } = await orderWithDossier('inspection');
    const mark = [{ itemId: dossier.knownFlaws[0]!.id, result: 'as_described' }];
    const bySeller = await api.mark(seller, order.id, mark);
    expect(bySeller.statusCode).toBe(403);
    expect(bySeller.json().code).toBe('NOT_ALLOWED');
    expect((await api.mark(stranger, order.id, mark)).statusCode).toBe(404);
    expect((await api.mark(buyer, 999_999, mark)).statusCode).toBe(404);
    const unknown = await api.mark(buyer, order.id, [{ itemId: 999_999, result: 'as_described' }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('items/0/itemId');
    expect((await api.mark(buyer, order.id, [{ itemId: dossier.knownFlaws[0]!.id, result: 'maybe' }])).statusCode).toBe(400);

    const early = await orderWithDossier('in_transit');
    const tooEarly = await api.mark(early.buyer, early.order.id, [{ itemId: early.dossier.knownFlaws[0]!.id, result: 'as_described' }]);
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().code).toBe('INVALID_TRANSITION');
  });
});

describe('disputes and the operator', () => {
  it('a dispute cites the items marked not as described by itself; the operator sees the checklist, the frozen dossier and the changes since, and resolves', async () => {
    const { buyer, order, dossier, car } = await orderWithDossier('inspection');
    const flaw = dossier.knownFlaws[1]!;
    expect((await api.mark(buyer, order.id, [{ itemId: flaw.id, result: 'not_as_described', note: 'Both rear wheels are bent' }])).statusCode).toBe(200);
    const disputed = await orders.act(buyer, order.id, 'dispute', { reason: 'The wheels are bent, not scuffed.' });
    expect(disputed.statusCode, disputed.body).toBe(200);
    expect((await checklist(buyer, order.id)).disputedItems).toEqual([flaw.id]);

    // The listing changes after the sale (behind the application's back: the car is locked to its seller).
    await t.database.db.execute(`update dossier_entries set text = 'Light curb rash' where id = ${flaw.id}`);

    const view = await apiCalls(t).get(operator, '/api/admin/disputes');
    expect(view.statusCode, view.body).toBe(200);
    const found = (view.json().data.orders as DisputeCase[]).find((o) => o.id === order.id)!;
    expect(found.carId).toBe(car.id);
    expect(found.dossier).toMatchObject({ hashMatches: true, disputedItems: [flaw.id] });
    expect(found.dossier!.frozen.knownFlaws.find((i) => i.id === flaw.id)!.text).toBe('Curb rash on the left rear wheel');
    expect(found.dossier!.checklist.find((i) => i.itemId === flaw.id)).toMatchObject({ result: 'not_as_described', note: 'Both rear wheels are bent' });
    expect(found.dossier!.changesSince).toEqual([{ section: 'knownFlaws', change: 'changed', itemId: flaw.id, before: 'Curb rash on the left rear wheel', after: 'Light curb rash' }]);

    const resolved = await apiCalls(t).post(operator, `/api/admin/orders/${order.id}/resolve`, { outcome: 'refund', reason: 'The wheels do not match the listing.' });
    expect(resolved.statusCode, resolved.body).toBe(200);
  });

  it('a dispute may name the items itself; ids not in the frozen dossier are refused', async () => {
    const { buyer, order, dossier } = await orderWithDossier('inspection');
    const wrong = await orders.act(buyer, order.id, 'dispute', { reason: 'Not as described.', items: [999_999] });
    expect(wrong.statusCode).toBe(400);
    expect((await orders.get(buyer, order.id)).json().data.status).toBe('inspection');
    const named = [dossier.modifications[0]!.id, dossier.itemsIncluded[1]!.id];
    const res = await orders.act(buyer, order.id, 'dispute', { reason: 'The film and the cover are missing.', items: named });
    expect(res.statusCode, res.body).toBe(200);
    expect((await checklist(buyer, order.id)).disputedItems).toEqual(named);
    const afterDispute = await api.mark(buyer, order.id, [{ itemId: named[0]!, result: 'as_described' }]);
    expect(afterDispute.statusCode).toBe(409);
  });
});
