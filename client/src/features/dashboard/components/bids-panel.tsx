import { Link } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { GavelIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getMyBids } from '../api/dashboard.ts';
import { carName } from '../lib/dashboard-format.ts';
import { EmptyPanel, Thumb } from './panel-parts.tsx';
import { carPath } from '@common/paths.ts';

/** "My Bids": the viewer's bids, leading or outbid. */
export function BidsPanel() {
  const { resource, retry } = useResource('bids', getMyBids);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your bids...">
      {(bids) =>
        bids.length === 0 ? (
          <EmptyPanel icon={<GavelIcon size={28} />} title="No bids yet">
            Place a bid on a car&apos;s page and follow it here.{' '}
            <Link to="/" className="text-link">
              Find a car
            </Link>
          </EmptyPanel>
        ) : (
          <ul className="divided-list" aria-label="Your bids, newest first">
            {bids.map((bid) => (
              <li key={bid.id} className="dash-row" data-testid="bid-row">
                <Thumb src={bid.car.primaryImage} />
                <div className="dash-row__main">
                  <Link to={carPath(bid.car.id)} className="dash-row__title dash-link">
                    {carName(bid.car)}
                  </Link>
                  <p className="dash-row__meta">
                    Your bid <strong>{formatUsd(bid.amount)}</strong>
                    {bid.car.highestBid !== null && <> · Highest {formatUsd(bid.car.highestBid)}</>} ·{' '}
                    <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
                  </p>
                </div>
                <span className={bid.status === 'leading' ? 'status-badge status-badge--done' : 'status-badge status-badge--problem'}>
                  {bid.status === 'leading' ? 'Leading' : 'Outbid'}
                </span>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}
