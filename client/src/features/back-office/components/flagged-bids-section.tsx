import { Link } from 'react-router-dom';
import { SHARED_ADDRESS_WINDOW_DAYS } from '@common/back-office.ts';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { RefreshIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { getFlaggedBids } from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { ConsoleEmpty, SectionHead, type SectionProps } from './section-parts.tsx';
import { TableFrame } from './table-frame.tsx';

/** Bids that may be the seller bidding up their own car: flagged when placed, never blocked. */
export function FlaggedBidsSection({ titleId }: SectionProps) {
  const { resource, retry } = useConsoleResource('admin:flagged-bids', getFlaggedBids);
  return (
    <div className="console-section">
      <SectionHead
        titleId={titleId}
        title="Flagged Bids"
        lead={`Bids placed by an account that signed in from the same address as the car’s seller within ${SHARED_ADDRESS_WINDOW_DAYS} days. They were accepted; look into the accounts and suspend one if it is shill bidding.`}
        aside={
          <button type="button" className="btn btn--outline btn--sm" onClick={retry}>
            <RefreshIcon size={16} />
            Refresh
          </button>
        }
      />
      <Loaded resource={resource} retry={retry} label="Loading flagged bids...">
        {(bids) =>
          bids.length === 0 ? (
            <ConsoleEmpty title="No flagged bids">No bid shares an address with its car’s seller.</ConsoleEmpty>
          ) : (
            <TableFrame caption={`Flagged bids, ${bids.length} in all`} testId="flagged-bids-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Car</th>
                  <th scope="col">Bidder</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                  <th scope="col">Why flagged</th>
                </tr>
              </thead>
              <tbody>
                {bids.map((bid) => (
                  <tr key={bid.id}>
                    <td className="nowrap">
                      <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
                    </td>
                    <td>
                      <Link to={carPath(bid.carId)} className="text-link">
                        Car #{bid.carId}
                      </Link>
                    </td>
                    <td>
                      {bid.userName}
                      <span className="console-table__sub">Account #{bid.userId}</span>
                    </td>
                    <td className="num">{formatUsd(bid.amount)}</td>
                    <td>{bid.reason}</td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
          )
        }
      </Loaded>
    </div>
  );
}
