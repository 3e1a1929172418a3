import { describe, expect, it } from 'vitest';
import {
  INITIAL_PRICE_STATE,
  PRICE_ANNOUNCE_INTERVAL_MS as GAP,
  nextCountdownAnnouncement,
  nextPriceAnnouncement,
  type PriceAnnouncerState,
  type PriceEvent,
} from './live-announcements.ts';

/** Runs the events in order, firing each `wakeAt` timer when its time comes before the next event. */
function run(events: PriceEvent[], until: number) {
  let state: PriceAnnouncerState = INITIAL_PRICE_STATE;
  let wakeAt: number | null = null;
  const said: { at: number; price?: string; outbid?: string }[] = [];
  const apply = (event: PriceEvent) => {
    const step = nextPriceAnnouncement(state, event);
    state = step.state;
    wakeAt = step.wakeAt;
    if (step.price) said.push({ at: event.at, price: step.price });
    if (step.outbid) said.push({ at: event.at, outbid: step.outbid });
  };
  for (const event of [...events].sort((a, b) => a.at - b.at)) {
    while (wakeAt !== null && wakeAt <= event.at) apply({ type: 'tick', at: wakeAt });
    apply(event);
  }
  while (wakeAt !== null && wakeAt <= until) apply({ type: 'tick', at: wakeAt });
  return said;
}

describe('price announcements', () => {
  it('a bidding war of 20 bids in 10 s speaks at most one price per interval, and ends on the latest', () => {
    const bids = Array.from({ length: 20 }, (_, i): PriceEvent => ({ type: 'price', amount: 100_000 + i * 1_000, at: i * 500 }));
    const said = run(bids, 60_000);
    const prices = said.filter((s) => s.price);
    expect(prices.length).toBeLessThanOrEqual(Math.ceil(10_000 / GAP) + 1);
    for (let i = 1; i < prices.length; i++) expect(prices[i]!.at - prices[i - 1]!.at).toBeGreaterThanOrEqual(GAP);
    expect(prices[0]).toEqual({ at: 0, price: 'Current bid $100,000' });
    expect(prices.at(-1)!.price).toBe('Current bid $119,000');
  });

  it('never says a price that is no longer the latest when it speaks', () => {
    const said = run(
      [
        { type: 'price', amount: 1_000, at: 0 },
        { type: 'price', amount: 2_000, at: 1_000 },
        { type: 'price', amount: 3_000, at: 2_000 },
      ],
      20_000,
    );
    expect(said).toEqual([
      { at: 0, price: 'Current bid $1,000' },
      { at: GAP, price: 'Current bid $3,000' },
    ]);
  });

  it("speaks the user's own outbid every time, at once, even inside the interval", () => {
    const said = run(
      [
        { type: 'price', amount: 1_000, at: 0 },
        { type: 'outbid', amount: 2_000, at: 100 },
        { type: 'outbid', amount: 3_000, at: 200 },
        { type: 'outbid', amount: 4_000, at: 300 },
      ],
      20_000,
    );
    expect(said.filter((s) => s.outbid).map((s) => s.outbid)).toEqual([
      'You have been outbid: the highest bid is now $2,000.',
      'You have been outbid: the highest bid is now $3,000.',
      'You have been outbid: the highest bid is now $4,000.',
    ]);
    expect(said.filter((s) => s.price), 'the outbid said the price').toEqual([{ at: 0, price: 'Current bid $1,000' }]);
  });

  it('a price newer than the outbid still follows once the interval has passed', () => {
    const said = run(
      [
        { type: 'outbid', amount: 2_000, at: 0 },
        { type: 'price', amount: 2_500, at: 1_000 },
      ],
      20_000,
    );
    expect(said).toEqual([
      { at: 0, outbid: 'You have been outbid: the highest bid is now $2,000.' },
      { at: GAP, price: 'Current bid $2,500' },
    ]);
  });

  it('does not repeat a price it has just said', () => {
    const said = run(
      [
        { type: 'price', amount: 1_000, at: 0 },
        { type: 'price', amount: 1_000, at: 9_000 },
      ],
      20_000,
    );
    expect(said).toEqual([{ at: 0, price: 'Current bid $1,000' }]);
  });
});

describe('countdown announcements', () => {
  /** What is said as the countdown goes through `seconds` (with the extension counts given). */
  function sayings(ticks: [seconds: number, extensions: number][]) {
    let state = { seconds: null as number | null, extensions: 0 };
    const out: string[] = [];
    for (const [seconds, extensions] of ticks) {
      const step = nextCountdownAnnouncement(state, seconds, extensions);
      state = step.state;
      if (step.say) out.push(step.say);
    }
    return out;
  }

  it('says one minute, thirty seconds and the end, not every second', () => {
    const ticks = Array.from({ length: 95 }, (_, i): [number, number] => [94 - i, 0]);
    expect(sayings(ticks)).toEqual(['1 minute left.', '30 seconds left.', 'Time is up: waiting for the result.']);
  });

  it('says each extension with the time now left', () => {
    expect(
      sayings([
        [20, 0],
        [19, 0],
        [120, 1],
        [119, 1],
        [60, 1],
        [45, 1],
        [90, 2],
      ]),
    ).toEqual(['A late bid extended the auction: 2 minutes left.', '1 minute left.', 'A late bid extended the auction: 1 minute 30 seconds left.']);
  });

  it('says nothing when the page opens in the last minute', () => {
    expect(sayings([[40, 3]])).toEqual([]);
  });
});
