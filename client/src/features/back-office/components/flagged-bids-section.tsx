import { Link } from 'react-router-dom';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { getFlaggedBids } from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { ConsoleSection, LoadedList, type SectionProps } from './section-parts.tsx';
import { TableFrame, type Column } from './table-frame.tsx';

const COLUMNS: Column[] = ['When', 'Car', 'Bidder', { label: 'Amount', num: true }, 'Why flagged'];

/** Bids that may be the seller bidding up their own car: flagged when placed, never blocked. */
export function FlaggedBidsSection({ titleId }: SectionProps) {
  const { resource, retry } = useConsoleResource('admin:flagged-bids', getFlaggedBids);
  return (
    <ConsoleSection section="flagged-bids" titleId={titleId} onRefresh={retry}>
      <LoadedList resource={resource} retry={retry} label="Loading flagged bids..." empty={{ title: 'No flagged bids', text: 'No bid shares an address with its car’s seller.' }}>
        {(bids) => (
          <TableFrame caption={`Flagged bids, ${bids.length} in all`} columns={COLUMNS} testId="flagged-bids-table">
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
          </TableFrame>
        )}
      </LoadedList>
    </ConsoleSection>
  );
}
