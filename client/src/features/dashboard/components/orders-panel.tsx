import { Link } from 'react-router-dom';
import { ESCROW_PLANS, amountCharged } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { ReceiptIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { nextStepText, orderRole, roleLabel } from '../../../lib/order-progress.ts';
import { orderStatusLabel, orderStatusTone } from '../../../lib/order-status.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getMyOrders } from '../api/dashboard.ts';
import { CarRow, EmptyPanel } from './panel-parts.tsx';
import { orderPath } from '@common/paths.ts';

/** "Orders": the escrow orders the viewer buys or sells in, with whose move it is. */
export function OrdersPanel({ userId }: { userId: number }) {
  const { resource, retry } = useResource(`orders:${userId}`, getMyOrders);
  return (
    <Loaded resource={resource} retry={retry} label="Loading your orders...">
      {(orders) =>
        orders.length === 0 ? (
          <EmptyPanel icon={<ReceiptIcon size={28} />} title="No orders yet" link={{ to: '/escrow', label: 'How escrow works' }}>
            When you buy or sell a car with escrow, the order and its status appear here.
          </EmptyPanel>
        ) : (
          <ul className="divided-list" aria-label="Your orders, newest first">
            {orders.map((order) => {
              const plan = ESCROW_PLANS[order.plan]?.name ?? order.plan;
              const role = orderRole(order, userId);
              return (
                <CarRow
                  key={order.id}
                  car={order.car}
                  className="dash-row--order"
                  data-testid="order-row"
                  data-order-id={order.id}
                  aside={
                    <div className="stack dash-row__side">
                      <span className={`status-badge status-badge--${orderStatusTone(order.status)}`} data-testid="order-status">
                        {orderStatusLabel(order.status)}
                      </span>
                      <Link to={orderPath(order.id)} className="btn btn--outline btn--sm" aria-label={`View order #${order.id}`}>
                        View Order
                      </Link>
                    </div>
                  }
                >
                  <p className="dash-row__meta">
                    Order #{order.id} · <strong>{roleLabel(role)}</strong> · {plan} ·{' '}
                    <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
                  </p>
                  <p className="dash-row__meta">
                    {formatUsd(order.amount)} + {formatUsd(order.escrowFee)} escrow fee ={' '}
                    <strong>{formatUsd(amountCharged(order))}</strong>
                  </p>
                  <p className="dash-row__next" data-testid="order-next-step">
                    {nextStepText(order, role)}
                  </p>
                </CarRow>
              );
            })}
          </ul>
        )
      }
    </Loaded>
  );
}
