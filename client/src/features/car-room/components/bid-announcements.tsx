import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { INITIAL_PRICE_STATE, nextPriceAnnouncement, type PriceAnnouncerState, type PriceEvent } from '../../../lib/live-announcements.ts';

/** This browser's choice to hear new bids read out (a device preference, kept in localStorage). */
export const ANNOUNCE_BIDS_KEY = 'luxemotors.announceBids';

const preferenceListeners = new Set<() => void>();
const announcePreference = {
  subscribe(listener: () => void) {
    preferenceListeners.add(listener);
    return () => preferenceListeners.delete(listener);
  },
  get(): boolean {
    try {
      return window.localStorage.getItem(ANNOUNCE_BIDS_KEY) !== 'off';
    } catch {
      return true;
    }
  },
  set(on: boolean) {
    try {
      window.localStorage.setItem(ANNOUNCE_BIDS_KEY, on ? 'on' : 'off');
    } catch {
      // A browser that keeps nothing forgets the choice with the page.
    }
    preferenceListeners.forEach((listener) => listener());
  },
};

interface Spoken {
  price: string;
  outbid: string;
}

/** The throttle's state and its timer, outside React: the texts the two status regions hold. */
class SpokenBids {
  private state: PriceAnnouncerState = INITIAL_PRICE_STATE;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private seen: { highestBid: number | null; leading: boolean } | null = null;
  private snapshot: Spoken = { price: '', outbid: '' };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) clearTimeout(this.timer);
    };
  };

  getSnapshot = () => this.snapshot;

  /** A new highest bid, and whether the user now leads. What the page showed first is not news. */
  observe(highestBid: number | null, leading: boolean) {
    const before = this.seen;
    this.seen = { highestBid, leading };
    if (before === null || highestBid === null || highestBid === before.highestBid) return;
    this.apply(before.leading && !leading ? { type: 'outbid', amount: highestBid, at: Date.now() } : { type: 'price', amount: highestBid, at: Date.now() });
  }

  private apply(event: PriceEvent) {
    const step = nextPriceAnnouncement(this.state, event);
    this.state = step.state;
    const next = { price: step.price && announcePreference.get() ? step.price : this.snapshot.price, outbid: step.outbid ?? this.snapshot.outbid };
    if (next.price !== this.snapshot.price || next.outbid !== this.snapshot.outbid) {
      this.snapshot = next;
      this.listeners.forEach((listener) => listener());
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = step.wakeAt === null ? null : setTimeout(() => this.apply({ type: 'tick', at: Date.now() }), Math.max(0, step.wakeAt - Date.now()));
  }
}

const NOTHING_SPOKEN: Spoken = { price: '', outbid: '' };

/**
 * The car room's spoken bids: the current price as a status, throttled so a bidding war is not a
 * flood (live-announcements.ts), and "You have been outbid" each time the user's lead is taken,
 * at once, in a status of its own. A checkbox turns the price announcements off on this device;
 * the user's own outbid is still said. The visible price and the bid list stay silent.
 */
export function BidAnnouncements({ highestBid, userId, leaderId }: { highestBid: number | null; userId: number | null; leaderId: number | null }) {
  const toggleId = useId();
  const hintId = useId();
  const [spoken] = useState(() => new SpokenBids());
  const enabled = useSyncExternalStore(announcePreference.subscribe, announcePreference.get, () => true);
  const { price, outbid } = useSyncExternalStore(spoken.subscribe, spoken.getSnapshot, () => NOTHING_SPOKEN);
  const leading = userId !== null && leaderId === userId;

  useEffect(() => spoken.observe(highestBid, leading), [spoken, highestBid, leading]);

  return (
    <div className="bid-announcements">
      <label className="bid-announcements__toggle" htmlFor={toggleId}>
        <input
          id={toggleId}
          type="checkbox"
          checked={enabled}
          aria-describedby={hintId}
          onChange={(event) => announcePreference.set(event.target.checked)}
          data-testid="announce-bids"
        />
        Read out new bids
      </label>
      <p id={hintId} className="bid-announcements__hint">
        For screen readers: the current bid at most every few seconds. Being outbid is always said.
      </p>
      <p className="sr-only" role="status" aria-atomic="true" data-testid="price-announcement">
        {enabled ? price : ''}
      </p>
      <p className="sr-only" role="status" aria-atomic="true" data-testid="outbid-announcement">
        {outbid}
      </p>
    </div>
  );
}
