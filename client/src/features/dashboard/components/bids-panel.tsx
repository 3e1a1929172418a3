import { formatUsd } from '@common/pricing.ts';
import { GavelIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getMyBids } from '../api/dashboard.ts';
import { CarRow, EmptyPanel } from './panel-parts.tsx';

/** "My Bids": the viewer's bids, leading or outbid. */
export function BidsPanel() {
  const { resource, retry } = useResource('bids', getMyBids);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your bids...">
      {(bids) =>
        bids.length === 0 ? (
          <EmptyPanel icon={<GavelIcon size={28} />} title="No bids yet" link={{ to: '/', label: 'Find a car' }}>
            Place a bid on a car&apos;s page and follow it here.
          </EmptyPanel>
        ) : (
          <ul className="divided-list" aria-label="Your bids, newest first">
            {bids.map((bid) => (
              <CarRow
                key={bid.id}
                car={bid.car}
                data-testid="bid-row"
                aside={
                  <span className={bid.status === 'leading' ? 'status-badge status-badge--done' : 'status-badge status-badge--problem'}>
                    {bid.status === 'leading' ? 'Leading' : 'Outbid'}
                  </span>
                }
              >
                <p className="dash-row__meta">
                  Your bid <strong>{formatUsd(bid.amount)}</strong>
                  {bid.car.highestBid !== null && <> · Highest {formatUsd(bid.car.highestBid)}</>} ·{' '}
                  <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
                </p>
              </CarRow>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}
