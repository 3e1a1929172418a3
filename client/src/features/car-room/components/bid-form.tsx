import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BID_RULE_DESCRIPTION, PROXY_BID_DESCRIPTION, bidIncrement } from '@common/bid-rules.ts';
import { formatUsd } from '@common/pricing.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { LockIcon } from '../../../components/ui/icons.tsx';
import { MoneyField } from '../../../components/ui/money-field.tsx';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-client.ts';
import { ClientErrorCode } from '../../../lib/client-error-codes.ts';
import { isAnswered, RetrySafeSender } from '../../../lib/retry-key.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { followsMinimum, formatAmountInput, parseBidAmount } from '../lib/bid-amount.ts';
import { ownCarKey, submitBid, useCarRoomStore } from '../stores/car-room-store.ts';
import { useSessionDependent } from '../../../lib/use-hydrated.ts';

export const INVALID_AMOUNT_MESSAGE = 'Enter a whole-dollar amount, for example 125000.';
export const SIGN_IN_AGAIN_MESSAGE = 'Your session has ended. Please sign in again to place a bid.';
export const INVALID_MAXIMUM_MESSAGE = 'Enter your maximum as a whole-dollar amount, or clear "Set a maximum".';
export const MAXIMUM_BELOW_BID_MESSAGE = 'Your maximum must be at least your bid.';

/** Above the auction limit: the server's own sentence for 409 ABOVE_ESCROW_LIMIT. */
export function aboveLimitMessage(maximum: number): string {
  return `Auction bids can be at most ${formatUsd(maximum)}, the most escrow covers`;
}

/** The rule for auctions, in the words of the shared rule (bid-rules.ts) and the auction limits. */
const AUCTION_RULE_DESCRIPTION = `Bidding opens at the starting bid; each later bid must beat the highest by ${formatUsd(bidIncrement(0))} below $50,000, rising to ${formatUsd(bidIncrement(Number.MAX_SAFE_INTEGER))} above $500,000. Bids go up to $1,000,000, the most escrow covers. A bid in the final minutes extends the auction, so nobody can snipe it.`;

/**
 * `whileMinimumIs`: the message is about that minimum and goes stale once a newer bid moves it.
 * `placed`: our accepted bid; once a higher one arrives the message says we were outbid.
 */
type Feedback = { tone: 'error' | 'success'; text: string; whileMinimumIs?: number; placed?: number } | null;
type Blocked = 'sign-in' | 'verify' | 'own-car' | null;

/**
 * The bid form: pre-filled with the current minimum (kept current as bids arrive unless the user
 * is typing), one Idempotency-Key per submission attempt (reused when an answer was lost, so a
 * retry cannot bid twice), and the server's own sentence for every refusal.
 */
export function BidForm({
  carId,
  minimum,
  maximum = null,
  auction = false,
  highestBid = null,
}: {
  carId: number;
  minimum: number | null;
  /** The highest bid now (to tell the bidder they were outbid). */
  highestBid?: number | null;
  /** The largest bid taken (auctions: the escrow limit), else null. */
  maximum?: number | null;
  auction?: boolean;
}) {
  const location = useLocation();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const user = useSessionStore((s) => s.user);
  const userId = isAuthenticated && user ? user.id : null;
  const sessionDependent = useSessionDependent();
  const ownCar = useCarRoomStore((s) => (userId === null ? false : Boolean(s.ownCars[ownCarKey(userId, carId)])));
  /** The user's maximum for this car (private to them), and who leads: the bidder of the newest bid. */
  const myMax = useCarRoomStore((s) => (userId === null ? null : (s.myMaxes[ownCarKey(userId, carId)] ?? null)));
  const leaderId = useCarRoomStore((s) => s.rooms[carId]?.bids[0]?.userId ?? null);

  const inputId = useId();
  const helpId = useId();
  const minimumId = useId();
  const reasonId = useId();
  const maxToggleId = useId();
  const maxInputId = useId();
  const [withMax, setWithMax] = useState(false);
  const [maxDraft, setMaxDraft] = useState('');
  const [draft, setDraft] = useState<{ value: string; minimumAtEdit: number | null } | null>(null);
  const [focused, setFocused] = useState(false);
  const [pending, setPending] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  /** Bids by amount and maximum: retrying a bid whose answer never came (network error) reuses its key. */
  const [sender] = useState(() => new RetrySafeSender<string>());

  const blocked: Blocked = userId === null ? 'sign-in' : !user?.email_verified ? 'verify' : ownCar ? 'own-car' : null;
  const following = followsMinimum(draft, minimum, focused);
  const shown = following ? (minimum === null ? '' : formatAmountInput(minimum)) : (draft?.value ?? '');
  // Bidding reached the limit: nothing higher can be bid.
  const capped = maximum !== null && minimum !== null && minimum > maximum;
  const disabled = blocked !== null || minimum === null || capped;
  const leading = userId !== null && leaderId === userId;
  // Automatic bids for our maximum raise the price while we still lead: outbid means someone else leads.
  const outbid = feedback?.placed !== undefined && (leaderId !== null ? !leading : highestBid !== null && highestBid > feedback.placed);
  const shownFeedback: Feedback = outbid
    ? { tone: 'error', text: highestBid === null ? 'You have been outbid.' : `You have been outbid: the highest bid is now ${formatUsd(highestBid)}.` }
    : feedback && (feedback.whileMinimumIs === undefined || feedback.whileMinimumIs === minimum)
      ? feedback
      : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sender.busy || disabled) return; // a double click sends one request
    const amount = parseBidAmount(shown);
    if (amount === null) {
      setFeedback({ tone: 'error', text: INVALID_AMOUNT_MESSAGE });
      return;
    }
    if (maximum !== null && amount > maximum) {
      setFeedback({ tone: 'error', text: aboveLimitMessage(maximum) });
      return;
    }
    const maxAmount = withMax ? parseBidAmount(maxDraft) : undefined;
    if (maxAmount === null) {
      setFeedback({ tone: 'error', text: INVALID_MAXIMUM_MESSAGE });
      return;
    }
    if (maxAmount !== undefined && maxAmount < amount) {
      setFeedback({ tone: 'error', text: MAXIMUM_BELOW_BID_MESSAGE });
      return;
    }
    if (maxAmount !== undefined && maximum !== null && maxAmount > maximum) {
      setFeedback({ tone: 'error', text: aboveLimitMessage(maximum) });
      return;
    }
    setPending(true);
    setFeedback(null);
    try {
      const placed = await sender.send(`${amount}:${maxAmount ?? ''}`, (key) => submitBid(carId, amount, key, userId, maxAmount));
      // The maximum's field goes with the bid: focus in it moves to "Set a maximum", where it was opened.
      if (document.activeElement?.id === maxInputId) document.getElementById(maxToggleId)?.focus();
      setDraft(null);
      setWithMax(false);
      setMaxDraft('');
      const own = placed.bid.amount;
      if (placed.leading) {
        const upTo = placed.maxAmount > own ? ` We bid for you up to your maximum of ${formatUsd(placed.maxAmount)}.` : '';
        setFeedback({ tone: 'success', text: `Your bid of ${formatUsd(own)} was placed.${upTo}`, placed: own });
      } else {
        setFeedback({ tone: 'error', text: `Your bid of ${formatUsd(own)} was placed, but another bidder's maximum is higher: the highest bid is now ${formatUsd(placed.car.highestBid)}.` });
      }
    } catch (error) {
      if (!isAnswered(error)) {
        // No answer: the bid may or may not have been taken. Retrying this amount reuses the key.
        setFeedback({ tone: 'error', text: NETWORK_ERROR_MESSAGE });
      } else if (error.code === ErrorCode.BID_TOO_LOW) {
        setDraft(null); // show the new minimum
        const stated = (error.details as { minimumAmount?: unknown } | undefined)?.minimumAmount;
        setFeedback({ tone: 'error', text: error.message, whileMinimumIs: typeof stated === 'number' ? stated : undefined });
      } else if (error.code === ErrorCode.CANNOT_BID_OWN_CAR) setFeedback(null); // the reason below says it
      else if (error.code === ClientErrorCode.SESSION_EXPIRED || error.status === 401) {
        setFeedback({ tone: 'error', text: SIGN_IN_AGAIN_MESSAGE });
      } else setFeedback({ tone: 'error', text: error.message });
    } finally {
      setPending(false);
    }
  }

  const describedBy = [minimumId, helpId, blocked ? reasonId : null].filter(Boolean).join(' ');

  return (
    <form className="bid-form" onSubmit={submit} noValidate aria-label="Place a bid" {...sessionDependent}>
      <MoneyField
        id={inputId}
        className="bid-form__amount"
        boxClassName="bid-form__input"
        label="Your bid"
        aside={
          <span id={minimumId} className="bid-form__minimum" data-testid="minimum-bid">
            {minimum === null || capped ? '' : `Minimum bid: ${formatUsd(minimum)}`}
          </span>
        }
        name="amount"
        value={shown}
        disabled={disabled}
        describedBy={describedBy}
        invalid={shownFeedback?.tone === 'error' && !outbid}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onChange={(value) => {
          setDraft({ value, minimumAtEdit: minimum });
          if (feedback) setFeedback(null);
        }}
        action={
          // Busy, it stays focusable (a disabled button would drop keyboard focus); submit ignores it then.
          <button type="submit" className="btn btn--gold" disabled={disabled} aria-disabled={pending || undefined}>
            {pending ? 'Placing bid...' : 'Place Bid'}
          </button>
        }
      />

      {!disabled && (
        <div className="bid-form__max">
          <label className="bid-form__max-toggle" htmlFor={maxToggleId}>
            <input
              id={maxToggleId}
              type="checkbox"
              checked={withMax}
              onChange={(event) => {
                setWithMax(event.target.checked);
                if (feedback) setFeedback(null);
              }}
            />
            Set a maximum
          </label>
          {withMax && (
            <MoneyField
              id={maxInputId}
              className="bid-form__amount"
              boxClassName="bid-form__input"
              label="Your maximum"
              hint={PROXY_BID_DESCRIPTION}
              name="maxAmount"
              value={maxDraft}
              onChange={(value) => {
                setMaxDraft(value);
                if (feedback) setFeedback(null);
              }}
            />
          )}
        </div>
      )}

      {myMax !== null && !blocked && (
        <p className={`callout tone-${leading ? 'success' : 'warning'} bid-form__my-max`} data-testid="my-maximum">
          Your maximum: {formatUsd(myMax)}. {leading ? 'You are leading.' : 'Another bidder leads.'}
        </p>
      )}

      {blocked && (
        <p id={reasonId} className="callout callout--icon tone-warning bid-form__reason" data-testid="bid-blocked-reason">
          <LockIcon size={16} />
          <span>
            {blocked === 'sign-in' && (
              <>
                <Link to="/login" state={{ from: `${location.pathname}${location.search}` }} className="text-link">
                  Sign in
                </Link>{' '}
                to place a bid.
              </>
            )}
            {blocked === 'verify' && (
              <>
                Verify your email address to place bids. Use the link we emailed you, or resend it from your{' '}
                <Link to="/dashboard" className="text-link">
                  dashboard
                </Link>
                .
              </>
            )}
            {blocked === 'own-car' && 'This is your listing: sellers cannot bid on their own cars.'}
          </span>
        </p>
      )}

      {/* The outbid is said by BidAnnouncements (once per lead lost), not on every price it follows. */}
      <div aria-live={outbid ? 'off' : 'polite'} className="bid-form__feedback-region">
        {shownFeedback && (
          <p
            className={`callout tone-${shownFeedback.tone} bid-form__feedback`}
            role={shownFeedback.tone === 'error' && !outbid ? 'alert' : undefined}
            data-testid="bid-feedback"
          >
            {shownFeedback.text}
          </p>
        )}
      </div>

      {capped && (
        <p className="callout callout--icon tone-warning bid-form__reason" data-testid="bid-capped">
          <LockIcon size={16} />
          <span>Bidding has reached {formatUsd(maximum)}, the most escrow covers.</span>
        </p>
      )}

      <p id={helpId} className="bid-form__help">
        {auction ? AUCTION_RULE_DESCRIPTION : BID_RULE_DESCRIPTION}
      </p>
    </form>
  );
}
