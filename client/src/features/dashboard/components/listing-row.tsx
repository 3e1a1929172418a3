import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { ClockIcon, EyeIcon, GavelIcon, HeartIcon, PencilIcon, ReceiptIcon } from '../../../components/ui/icons.tsx';
import { useSecondsLeft } from '../../../lib/countdown.ts';
import { canWithdraw, listingStatusLabel, listingStatusTone } from '../../../lib/listing-status.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { recordServerTime } from '../../../lib/server-clock.ts';
import { getListingDetail, type MyListing } from '../api/my-listings.ts';
import { carName } from '../lib/dashboard-format.ts';
import { canAcceptBid, listingAuctionOutcome } from '../lib/listing-actions.ts';
import { Thumb } from './panel-parts.tsx';
import { carPath, editListingPath, orderPath } from '@common/paths.ts';

const integer = new Intl.NumberFormat('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${integer.format(n)} ${n === 1 ? one : many}`;

/** What the seller asked to do with a listing (a dialog opens for it). */
export type ListingAction = { kind: 'withdraw' | 'accept' | 'second-chance'; listing: MyListing } | null;

/**
 * An auction that ended below its reserve may still be sold for a day: the listing row does not
 * say until when, so such a row reads its car (the seller's view) once. Undefined while unknown.
 */
function useAcceptUntil(listing: MyListing): string | null | undefined {
  const wanted = listing.auction !== null && canAcceptBid(listing);
  const [read, setRead] = useState<{ id: number; acceptUntil: string | null } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    getListingDetail(listing.id, controller.signal)
      .then((detail) => {
        recordServerTime(detail.serverTime);
        setRead({ id: listing.id, acceptUntil: detail.auction?.acceptUntil ?? null });
      })
      .catch(() => {
        // Without it the action stays offered; the server still says when the day has passed.
      });
    return () => controller.abort();
  }, [wanted, listing.id]);
  return wanted && read?.id === listing.id ? read.acceptUntil : undefined;
}

const OUTCOME_TEXT = { sold: 'Sold', reserve_not_met: 'Reserve not met', no_bids: 'Ended without bids' } as const;

/** A running auction's countdown and reserve; an ended one's outcome and, below the reserve, the day left to accept. */
function ListingAuction({ listing, acceptUntil }: { listing: MyListing; acceptUntil: string | null | undefined }) {
  const auction = listing.auction!;
  const outcome = listingAuctionOutcome(listing);
  const acceptLeft = useSecondsLeft(acceptUntil ?? null);
  if (!auction.ended) {
    return (
      <div className="cluster listing-auction" data-testid="listing-auction" data-state="running">
        <Countdown endsAt={auction.endsAt} testId="listing-countdown" extensions={auction.extensions} />
        <span className="listing-auction__reserve">
          {!auction.hasReserve ? 'No reserve' : auction.reserveMet ? 'Reserve met' : 'Reserve not met'}
          {auction.extensions > 0 && ` · extended ${auction.extensions === 1 ? 'once' : `${auction.extensions} times`}`}
        </span>
      </div>
    );
  }
  return (
    <div className="cluster listing-auction listing-auction--ended" data-testid="listing-auction" data-state="ended">
      <p className="listing-auction__outcome">
        <ClockIcon size={15} />
        <span>
          Auction ended <time dateTime={auction.endsAt}>{formatDateTime(auction.endsAt)}</time>:{' '}
          <strong data-testid="listing-outcome">
            {outcome === 'sold' && listing.highestBid !== null ? `Sold for ${formatUsd(listing.highestBid)}` : outcome ? OUTCOME_TEXT[outcome] : 'Closed'}
          </strong>
        </span>
      </p>
      {outcome === 'reserve_not_met' && acceptUntil && acceptLeft !== null && acceptLeft > 0 && (
        <Countdown endsAt={acceptUntil} label="You can accept the highest bid for" testId="listing-accept-countdown" />
      )}
      {outcome === 'reserve_not_met' && acceptUntil && acceptLeft === 0 && (
        <p className="listing-auction__passed">The day to accept the highest bid has passed.</p>
      )}
    </div>
  );
}

/** One of the seller's listings: its numbers, its auction, its order, and what can be done with it. */
export function ListingRow({ listing, onAction }: { listing: MyListing; onAction: (action: ListingAction) => void }) {
  const name = carName(listing);
  const acceptUntil = useAcceptUntil(listing);
  const acceptLeft = useSecondsLeft(acceptUntil ?? null);
  // After a reserve-not-met close the action is offered only while the day to accept runs.
  const acceptable = canAcceptBid(listing) && !(acceptUntil !== undefined && (acceptUntil === null || acceptLeft === 0));
  const draft = listing.status === 'draft';
  const editable = listing.status === 'draft' || listing.status === 'active' || listing.status === 'ended';
  return (
    <li className="dash-row dash-row--listing" data-testid="listing-row" data-car-id={listing.id}>
      <Thumb src={listing.primary_image} />
      <div className="dash-row__main">
        {draft ? (
          <span className="dash-row__title">{name}</span>
        ) : (
          <Link to={carPath(listing.id)} className="dash-row__title dash-link">
            {name}
          </Link>
        )}
        <p className="dash-row__meta listing-row__money">
          <strong>{formatUsd(listing.price)}</strong> ·{' '}
          <span data-testid="listing-market-value">
            {listing.market_value === null ? 'Market value: Not enough data' : `Market value ${formatUsd(listing.market_value)}`}
          </span>
        </p>
        <ul className="listing-row__stats" aria-label="Interest">
          <li>
            <GavelIcon size={15} />
            {plural(listing.current_bids, 'bid')}
            {listing.highestBid !== null && <>, highest {formatUsd(listing.highestBid)}</>}
          </li>
          <li>
            <EyeIcon size={15} />
            {integer.format(listing.viewing_count)} viewing now
          </li>
          <li>
            <HeartIcon size={15} />
            {integer.format(listing.watchers)} watching
          </li>
        </ul>
        {listing.auction && <ListingAuction listing={listing} acceptUntil={acceptUntil} />}
        {listing.openOrderId !== null && (
          <p className="dash-row__next">
            <ReceiptIcon size={15} />{' '}
            <Link to={orderPath(listing.openOrderId)} className="dash-link" data-testid="listing-order-link">
              Order #{listing.openOrderId}
            </Link>
          </p>
        )}
        {draft && <p className="dash-row__next">Not published yet: add photos and publish when you are ready.</p>}
      </div>
      <div className="stack dash-row__side listing-row__side">
        <span className={`status-badge status-badge--${listingStatusTone(listing.status)}`} data-testid="listing-status">
          {listingStatusLabel(listing.status)}
        </span>
      </div>
      <div className="listing-row__actions">
        {editable && (
          <Link to={editListingPath(listing.id)} className="btn btn--outline btn--sm" aria-label={`${draft ? 'Continue' : 'Edit'} ${name}`}>
            <PencilIcon size={15} />
            {draft ? 'Continue' : 'Edit'}
          </Link>
        )}
        {acceptable && (
          <button
            type="button"
            className="btn btn--gold btn--sm"
            aria-haspopup="dialog"
            aria-label={`Accept highest bid for ${name}`}
            onClick={() => onAction({ kind: 'accept', listing })}
          >
            Accept Highest Bid
          </button>
        )}
        {listing.secondChance && (
          <button
            type="button"
            className="btn btn--gold btn--sm"
            aria-haspopup="dialog"
            aria-label={`Offer ${name} to the runner-up, ${listing.secondChance.buyerName}`}
            onClick={() => onAction({ kind: 'second-chance', listing })}
            data-testid="second-chance"
          >
            Offer to runner-up
          </button>
        )}
        {canWithdraw(listing.status) && (
          <button
            type="button"
            className="btn btn--outline btn--sm"
            aria-haspopup="dialog"
            aria-label={`Withdraw ${name}`}
            onClick={() => onAction({ kind: 'withdraw', listing })}
          >
            Withdraw
          </button>
        )}
      </div>
    </li>
  );
}
