import { useId, type ComponentType, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { OrderStatus } from '@common/order-lifecycle.ts';
import { ORDER_STATUSES } from '@common/order-lifecycle.ts';
import { adminPath, type AdminSection } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { BanknoteIcon, GavelIcon, HeadsetIcon, ReceiptIcon, RefreshIcon, WarningIcon, type IconProps } from '../../../components/ui/icons.tsx';
import { orderStatusLabel, orderStatusTone } from '../../../lib/order-status.ts';
import { getOverview, type AdminOverview } from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { ConsoleSection, type SectionProps } from './section-parts.tsx';
import './overview-section.css';

interface Tile {
  key: string;
  label: string;
  value: (o: AdminOverview) => ReactNode;
  hint: string;
  Icon: ComponentType<IconProps>;
  /** The section that deals with it. */
  to?: AdminSection;
  /** Draws the eye when not zero. */
  alert?: (o: AdminOverview) => boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

const TILES: Tile[] = [
  { key: 'disputesOpen', label: 'Open disputes', value: (o) => count(o.disputesOpen), hint: 'Waiting for a decision', Icon: WarningIcon, to: 'disputes', alert: (o) => o.disputesOpen > 0 },
  { key: 'escrowHeld', label: 'Held in escrow', value: (o) => formatUsd(o.escrowHeld), hint: 'Charged and not paid out or refunded (fees kept included)', Icon: BanknoteIcon, to: 'ledger' },
  { key: 'payoutsPending', label: 'Payouts pending', value: (o) => count(o.payoutsPending), hint: 'Sent to sellers, not yet settled', Icon: ReceiptIcon, to: 'ledger' },
  { key: 'refundsPending', label: 'Refunds pending', value: (o) => count(o.refundsPending), hint: 'Sent to buyers, not yet settled', Icon: RefreshIcon, to: 'ledger' },
  { key: 'flaggedBids', label: 'Flagged bids', value: (o) => count(o.flaggedBids), hint: 'Bidder shares an address with the seller', Icon: GavelIcon, to: 'flagged-bids', alert: (o) => o.flaggedBids > 0 },
  { key: 'ticketsOpen', label: 'Open tickets', value: (o) => count(o.ticketsOpen), hint: 'Support requests to answer', Icon: HeadsetIcon, to: 'tickets', alert: (o) => o.ticketsOpen > 0 },
];

/** The console's first page: the figures that say what needs doing. */
export function OverviewSection({ titleId }: SectionProps) {
  const { resource, retry } = useConsoleResource('admin:overview', getOverview);
  return (
    <ConsoleSection section="overview" titleId={titleId} onRefresh={retry}>
      <Loaded resource={resource} retry={retry} label="Loading the figures...">
        {(overview) => (
          <>
            <ul className="stat-grid overview-tiles" aria-label="Figures">
              {TILES.map(({ key, label, value, hint, Icon, to, alert }) => (
                <li key={key} className={alert?.(overview) ? 'stack overview-tile overview-tile--alert' : 'stack overview-tile'} data-testid="overview-tile" data-stat={key}>
                  <span className="icon-disc overview-tile__icon" aria-hidden="true">
                    <Icon size={20} />
                  </span>
                  <p className="stat-label">{label}</p>
                  <p className="stat-value overview-tile__value">{value(overview)}</p>
                  <p className="overview-tile__hint">{hint}</p>
                  {to && (
                    <Link to={adminPath(to)} className="text-link overview-tile__link">
                      Open {to === 'flagged-bids' ? 'flagged bids' : to}
                      <span className="sr-only"> for {label.toLowerCase()}</span>
                    </Link>
                  )}
                </li>
              ))}
            </ul>
            <OrdersByStatus counts={overview.ordersByStatus} />
          </>
        )}
      </Loaded>
    </ConsoleSection>
  );
}

function OrdersByStatus({ counts }: { counts: AdminOverview['ordersByStatus'] }) {
  const statuses = ORDER_STATUSES.filter((status) => (counts[status] ?? 0) > 0);
  const total = statuses.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  const titleId = useId();
  return (
    <section className="overview-orders" aria-labelledby={titleId}>
      <h3 id={titleId} className="overview-orders__title">
        Orders by status <span className="overview-orders__total">{count(total)} in all</span>
      </h3>
      {statuses.length === 0 ? (
        <p className="muted">No orders yet.</p>
      ) : (
        <dl className="overview-orders__list">
          {statuses.map((status: OrderStatus) => (
            <div key={status} className="overview-orders__item">
              <dt>
                <span className={`status-badge status-badge--${orderStatusTone(status)}`}>{orderStatusLabel(status)}</span>
              </dt>
              <dd>{count(counts[status] ?? 0)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
