import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '@common/schemas/orders.ts';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import { actorPhrase, buildTimeline } from './timeline.ts';

let nextId = 1;
function ev(from: OrderStatus | null, to: OrderStatus, actor: OrderEvent['actor'], minute: number, note: string | null = null): OrderEvent {
  return { id: nextId++, from, to, actor, note, at: new Date(Date.UTC(2025, 0, 1, 10, minute)).toISOString() };
}

const placed = ev(null, 'awaiting_payment', 'buyer', 0);
const paid = ev('awaiting_payment', 'funded', 'buyer', 1);
const shipped = ev('funded', 'in_transit', 'seller', 2);
const delivered = ev('in_transit', 'inspection', 'buyer', 3);

const shape = (steps: ReturnType<typeof buildTimeline>) => steps.map((s) => `${s.status}:${s.state}${s.branch ? ':branch' : ''}`);
/** Steps in one state, in the shape above: `inState('done', 'funded')` is `['funded:done']`. */
const inState = (state: string, ...statuses: OrderStatus[]) => statuses.map((status) => `${status}:${state}`);

describe('buildTimeline', () => {
  it('a new order: the first step is current and the usual path lies ahead', () => {
    const steps = buildTimeline('awaiting_payment', [placed]);
    expect(shape(steps)).toEqual(['awaiting_payment:current', ...inState('upcoming', 'funded', 'in_transit', 'inspection', 'accepted', 'released')]);
    expect(steps[0]).toMatchObject({ at: placed.at, actor: 'buyer' });
    expect(steps[1]).toMatchObject({ at: null, actor: null });
  });

  it('midway: past steps carry their time, actor and note', () => {
    const withNote = { ...shipped, note: 'Reliable Carriers' };
    const steps = buildTimeline('in_transit', [placed, paid, withNote]);
    expect(shape(steps)).toEqual([...inState('done', 'awaiting_payment', 'funded'), 'in_transit:current', ...inState('upcoming', 'inspection', 'accepted', 'released')]);
    expect(steps[2]).toMatchObject({ actor: 'seller', note: 'Reliable Carriers', at: shipped.at });
  });

  it('released: every step done, nothing ahead', () => {
    const steps = buildTimeline('released', [placed, paid, shipped, delivered, ev('inspection', 'accepted', 'buyer', 4), ev('accepted', 'released', 'system', 5)]);
    expect(shape(steps)).toEqual(['awaiting_payment:done', 'funded:done', 'in_transit:done', 'inspection:done', 'accepted:done', 'released:done']);
  });

  it('a dispute branches off the inspection and waits with nothing ahead', () => {
    const steps = buildTimeline('disputed', [placed, paid, shipped, delivered, ev('inspection', 'disputed', 'buyer', 4, 'Scratched door')]);
    expect(shape(steps)).toEqual(['awaiting_payment:done', 'funded:done', 'in_transit:done', 'inspection:done', 'disputed:current:branch']);
    expect(steps.at(-1)?.note).toBe('Scratched door');
  });

  it('a refunded dispute ends on the refund; a dispute released by the operator skips "accepted"', () => {
    const disputed = ev('inspection', 'disputed', 'buyer', 4);
    const refunded = buildTimeline('refunded', [placed, paid, shipped, delivered, disputed, ev('disputed', 'refunded', 'operator', 5, 'Damage confirmed')]);
    expect(shape(refunded).slice(-2)).toEqual(['disputed:done:branch', 'refunded:done:branch']);
    expect(refunded.at(-1)).toMatchObject({ actor: 'operator', note: 'Damage confirmed' });
    const released = buildTimeline('released', [placed, paid, shipped, delivered, disputed, ev('disputed', 'released', 'operator', 5)]);
    expect(shape(released).slice(-2)).toEqual(['disputed:done:branch', 'released:done']);
    expect(released.some((s) => s.status === 'accepted')).toBe(false);
  });

  it('a cancelled order shows only what happened', () => {
    expect(shape(buildTimeline('cancelled', [placed, ev('awaiting_payment', 'cancelled', 'system', 9)]))).toEqual([
      'awaiting_payment:done',
      'cancelled:done:branch',
    ]);
  });

  it('events out of order are sorted by time; a status ahead of its history still shows', () => {
    expect(shape(buildTimeline('funded', [paid, placed])).slice(0, 2)).toEqual(['awaiting_payment:done', 'funded:current']);
    const steps = buildTimeline('funded', [placed]);
    expect(shape(steps).slice(0, 3)).toEqual(['awaiting_payment:done', 'funded:current', 'in_transit:upcoming']);
    expect(steps[1]!.at).toBeNull();
    expect(shape(buildTimeline('funded', []))[0]).toBe('funded:current');
  });
});

describe('actorPhrase', () => {
  it('speaks of the viewer as "you"', () => {
    expect(actorPhrase('buyer', 'buyer')).toBe('by you');
    expect(actorPhrase('buyer', 'seller')).toBe('by the buyer');
    expect(actorPhrase('seller', 'buyer')).toBe('by the seller');
    expect(actorPhrase('system', 'buyer')).toBe('automatically');
    expect(actorPhrase('operator', 'seller')).toBe('by our escrow team');
  });
});
