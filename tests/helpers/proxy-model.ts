/**
 * A model of the contract's "Proxy bids (v3)" rule, written from its text and independent of
 * the server's resolution: it keeps every bidder's maximum (with the order they were set) and
 * picks the rival as the strongest other bidder, rather than trusting that the leader is the only
 * one that matters. Tests replay the accepted bids through it and compare what was recorded.
 */
import { bidIncrement, minimumBid } from '@common/bid-rules.ts';
import { AUCTION_BID_LIMIT } from '@common/auction-rules.ts';

export interface ModelBid {
  userId: number;
  amount: number;
  auto: boolean;
}

export type ModelOutcome = { ok: true; recorded: ModelBid[]; leading: boolean; maxAmount: number } | { ok: false; status: 400 | 409; code: string };

export class ProxyModel {
  readonly bids: ModelBid[] = [];
  private readonly maxes = new Map<number, { max: number; seq: number }>();
  private seq = 0;

  constructor(
    readonly price: number,
    readonly auction = false,
  ) {}

  get highestBid(): number | null {
    return this.bids.at(-1)?.amount ?? null;
  }

  get minimum(): number {
    return minimumBid(this.price, this.highestBid, { auction: this.auction });
  }

  /** The bidder with the largest maximum, the earliest on equal maxima. */
  get leader(): number | null {
    return this.strongest(null)?.userId ?? null;
  }

  maxOf(userId: number): number | undefined {
    return this.maxes.get(userId)?.max;
  }

  private strongest(except: number | null): { userId: number; max: number; seq: number } | null {
    let best: { userId: number; max: number; seq: number } | null = null;
    for (const [userId, m] of this.maxes) {
      if (userId === except) continue;
      if (!best || m.max > best.max || (m.max === best.max && m.seq < best.seq)) best = { userId, ...m };
    }
    return best;
  }

  place(userId: number, amount: number, maxAmount?: number): ModelOutcome {
    const max = maxAmount ?? amount;
    if (max < amount) return { ok: false, status: 400, code: 'VALIDATION_FAILED' };
    if (this.auction && max > AUCTION_BID_LIMIT) return { ok: false, status: 409, code: 'ABOVE_ESCROW_LIMIT' };
    if (amount < this.minimum) return { ok: false, status: 409, code: 'BID_TOO_LOW' };
    const price = this.highestBid;
    const rival = this.strongest(userId);
    // One maximum per bidder per car; it only rises (a lower one leaves the standing one, set when it was).
    const previous = this.maxes.get(userId);
    const mine = previous && previous.max >= max ? previous : { max, seq: this.seq++ };
    this.maxes.set(userId, mine);
    const recorded: ModelBid[] = [];
    if (!rival || price === null) {
      recorded.push({ userId, amount, auto: false });
    } else if (mine.max > rival.max || (mine.max === rival.max && mine.seq < rival.seq)) {
      if (rival.max > price) recorded.push({ userId: rival.userId, amount: rival.max, auto: true });
      recorded.push({ userId, amount: Math.max(amount, Math.min(mine.max, rival.max + bidIncrement(rival.max))), auto: false });
    } else {
      recorded.push({ userId, amount: mine.max, auto: false });
      recorded.push({ userId: rival.userId, amount: Math.min(rival.max, mine.max + bidIncrement(mine.max)), auto: true });
    }
    this.bids.push(...recorded);
    return { ok: true, recorded, leading: this.leader === userId, maxAmount: mine.max };
  }
}
