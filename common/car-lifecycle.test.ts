import { describe, expect, it } from 'vitest';
import {
  CAR_STATUSES,
  CAR_STATUS_MOVES,
  CAR_TRANSITIONS,
  HIDDEN_CAR_STATUS_MOVES,
  INITIAL_CAR_STATUSES,
  carMayMove,
  carStatusesFor,
  carTransitionFor,
  hiddenCarTransitionFor,
  type CarPosition,
  type CarStatus,
} from './car-lifecycle.ts';

const at = (status: CarStatus): CarPosition => ({ status, hiddenFromStatus: null, hiddenBy: null });
const hidden = (from: CarStatus, by: CarPosition['hiddenBy'] = 'operator'): CarPosition => ({ status: 'hidden', hiddenFromStatus: from, hiddenBy: by });
const visible = CAR_STATUSES.filter((s) => s !== 'hidden');

describe('the car lifecycle table', () => {
  it('lets the seller publish a draft and withdraw a listing until an order holds the money', () => {
    expect(carTransitionFor('publish', at('draft'))?.to).toBe('active');
    expect(carStatusesFor('publish')).toEqual(['draft']);
    expect(carStatusesFor('withdraw').sort()).toEqual(['active', 'draft', 'ended']);
    for (const status of ['pending', 'sold', 'withdrawn', 'hidden'] as const) expect(carMayMove('withdraw', at(status), 'seller'), status).toBe(false);
    // Only the seller: not the buyer, the clock or staff.
    for (const actor of ['buyer', 'system', 'operator'] as const) {
      expect(carMayMove('publish', at('draft'), actor), actor).toBe(false);
      expect(carMayMove('withdraw', at('active'), actor), actor).toBe(false);
    }
  });

  it('closes only a live auction, by the clock', () => {
    expect(carTransitionFor('close-auction', at('active'))).toMatchObject({ to: 'ended', by: ['system'] });
    expect(carStatusesFor('close-auction')).toEqual(['active']);
    expect(carMayMove('close-auction', at('active'), 'seller')).toBe(false);
  });

  it("moves a car with its escrow order: taken by the buyer's payment, then sold or back on the market", () => {
    expect(carStatusesFor('pay').sort()).toEqual(['active', 'ended']);
    expect(carMayMove('pay', at('active'), 'buyer')).toBe(true);
    expect(carMayMove('pay', at('ended'), 'buyer')).toBe(true);
    expect(carMayMove('pay', at('pending'), 'buyer')).toBe(false);
    expect(carMayMove('pay', at('draft'), 'buyer')).toBe(false);
    expect(carTransitionFor('sell', at('pending'))).toMatchObject({ to: 'sold', by: ['system', 'operator'] });
    expect(carTransitionFor('relist', at('pending'))).toMatchObject({ to: 'active', by: ['operator'] });
    expect(carMayMove('relist', at('pending'), 'system')).toBe(false);
    expect(carMayMove('sell', at('active'), 'system')).toBe(false);
  });

  it('lets staff hide a car from any status, and returns it to exactly that status', () => {
    for (const from of visible) {
      expect(carTransitionFor('hide', at(from)), from).toMatchObject({ to: 'hidden', by: ['operator'], hiddenBy: 'operator' });
      // Restoring leads to one status only: the one the car was hidden from.
      expect(carTransitionFor('restore', hidden(from)), from).toMatchObject({ to: from });
    }
    expect(CAR_TRANSITIONS.filter((t) => t.action === 'restore').map((t) => t.to).sort()).toEqual([...visible].sort());
    expect(carTransitionFor('hide', at('hidden'))).toBeUndefined();
    expect(carTransitionFor('restore', at('active'))).toBeUndefined();
  });

  it("hides a suspended seller's live listings, and only the unsuspension brings those back", () => {
    expect(carStatusesFor('suspend')).toEqual(['active']);
    expect(carTransitionFor('suspend', at('active'))).toMatchObject({ to: 'hidden', hiddenBy: 'suspension' });
    expect(carTransitionFor('unsuspend', hidden('active', 'suspension'))?.to).toBe('active');
    // Each hiding is undone by its own move.
    expect(carTransitionFor('restore', hidden('active', 'suspension'))).toBeUndefined();
    expect(carTransitionFor('unsuspend', hidden('active', 'operator'))).toBeUndefined();
  });

  it('completes a sale or a refund beneath a hidden car, and no other move', () => {
    expect(hiddenCarTransitionFor('sell', hidden('pending'))?.to).toBe('sold');
    expect(hiddenCarTransitionFor('relist', hidden('pending'))?.to).toBe('active');
    expect(carMayMove('sell', hidden('pending'), 'system')).toBe(true);
    for (const action of ['publish', 'withdraw', 'close-auction', 'pay'] as const) {
      for (const from of visible) expect(hiddenCarTransitionFor(action, hidden(from)), `${action} beneath ${from}`).toBeUndefined();
    }
    expect(HIDDEN_CAR_STATUS_MOVES).toEqual([
      ['pending', 'sold'],
      ['pending', 'active'],
    ]);
  });

  it('starts a car as a draft or active, reaches every status from there, and never moves a car to where it is', () => {
    expect(INITIAL_CAR_STATUSES).toEqual(['draft', 'active']);
    const reached = new Set<CarStatus>(INITIAL_CAR_STATUSES);
    for (let grew = true; grew; ) {
      const before = reached.size;
      for (const [from, to] of CAR_STATUS_MOVES) if (reached.has(from)) reached.add(to);
      grew = reached.size > before;
    }
    expect([...reached].sort()).toEqual([...CAR_STATUSES].sort());
    for (const t of CAR_TRANSITIONS) expect(t.from, t.action).not.toBe(t.to);
    // Sold and withdrawn are final: only staff hiding them (and restoring them) leaves them.
    for (const final of ['sold', 'withdrawn'] as const) expect(CAR_TRANSITIONS.filter((t) => t.from === final).map((t) => t.action)).toEqual(['hide']);
  });

  it('lists each pair of statuses once, with one move per action and status outside hiding', () => {
    const pairs = CAR_STATUS_MOVES.map(([from, to]) => `${from}>${to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs.length).toBe(21);
    const keys = CAR_TRANSITIONS.filter((t) => t.from !== 'hidden').map((t) => `${t.action}:${t.from}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
