import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CarIcon, PlusIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { useResource } from '../../../lib/use-resource.ts';
import { WithdrawListingDialog } from '../../selling/index.ts';
import { getMyListings, type MyListing } from '../api/my-listings.ts';
import { carName } from '../lib/dashboard-format.ts';
import { AcceptBidDialog } from './accept-bid-dialog.tsx';
import { ListingRow, type ListingAction } from './listing-row.tsx';
import { SecondChanceDialog } from './second-chance-dialog.tsx';
import { EmptyPanel } from './panel-parts.tsx';

const integer = new Intl.NumberFormat('en-US');

/** "My Listings": the seller's cars with their numbers and what can be done with each. */
export function MyListingsPanel({ userId }: { userId: number }) {
  const { resource, retry, mutate } = useResource(`my-listings:${userId}`, getMyListings);
  const [action, setAction] = useState<ListingAction>(null);

  function patch(id: number, change: Partial<MyListing>) {
    mutate((listings) => listings.map((l) => (l.id === id ? { ...l, ...change } : l)));
  }

  const withdrawing = action?.kind === 'withdraw' ? action.listing : null;
  return (
    <Loaded resource={resource} retry={retry} label="Loading your listings...">
      {(listings) => (
        <div className="my-listings">
          <div className="split-row my-listings__head">
            <p className="muted">
              {listings.length === 0
                ? 'You have no listings yet.'
                : `${integer.format(listings.length)} ${listings.length === 1 ? 'listing' : 'listings'}, newest first.`}
            </p>
            <Link to="/sell" className="btn btn--gold btn--sm">
              <PlusIcon size={16} />
              Sell your car
            </Link>
          </div>
          {listings.length === 0 ? (
            <EmptyPanel icon={<CarIcon size={28} />} title="Nothing listed yet" link={{ to: '/sell', label: 'Sell your car' }}>
              List your car with photos in a few minutes; buyers bid or buy it through escrow.
            </EmptyPanel>
          ) : (
            <ul className="divided-list" aria-label="Your listings, newest first">
              {listings.map((listing) => (
                <ListingRow key={listing.id} listing={listing} onAction={setAction} />
              ))}
            </ul>
          )}

          <WithdrawListingDialog
            carId={withdrawing?.id ?? 0}
            carName={withdrawing ? carName(withdrawing) : ''}
            open={withdrawing !== null}
            onClose={() => setAction(null)}
            onWithdrawn={() => {
              if (withdrawing) patch(withdrawing.id, { status: 'withdrawn', openOrderId: null });
              setAction(null);
            }}
          />
          <SecondChanceDialog listing={action?.kind === 'second-chance' ? action.listing : null} onClose={() => setAction(null)} />
          <AcceptBidDialog
            listing={action?.kind === 'accept' ? action.listing : null}
            onClose={() => setAction(null)}
            onAccepted={(order) => patch(order.carId, { openOrderId: order.id })}
          />
        </div>
      )}
    </Loaded>
  );
}
