import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { CarIcon } from '../../../components/ui/icons.tsx';
import { MoneySummary } from '../../../components/ui/money-summary.tsx';
import { formatDateTime } from '../../../lib/relative-time.ts';
import type { OrderWithEvents, PaymentLeg } from '../api/orders-api.ts';
import { carPath } from '@common/paths.ts';

const carName = (car: OrderWithEvents['car']) => `${car.year} ${car.make} ${car.model}`;

function CarImage({ src, alt }: { src: string | null; alt: string }) {
  const [failed, setFailed] = useState(false);
  return src && !failed ? (
    <img className="order-car__image" src={src} alt={alt} width={640} height={400} onError={() => setFailed(true)} />
  ) : (
    <span className="order-car__image order-car__image--none" role="img" aria-label="No Image">
      <CarIcon size={40} />
    </span>
  );
}

const When = ({ iso }: { iso: string }) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** The car, the money (price, fee, total) and the plan; the two parties. */
export function OrderSummary({ order }: { order: OrderWithEvents }) {
  const titleId = useId();
  const plan = ESCROW_PLANS[order.plan];
  const name = carName(order.car);
  return (
    <section className="card order-card order-car" aria-labelledby={titleId}>
      <CarImage src={order.car.primaryImage} alt={name} />
      <div className="order-car__body">
        <h2 id={titleId} className="order-car__title">
          <Link to={carPath(order.car.id)} className="order-link">
            {name}
          </Link>
        </h2>
        <MoneySummary price={order.amount} fee={order.escrowFee} className="order-totals" testId="order-amounts" />
        <Facts className="order-facts">
          <Fact label="Protection plan">{plan?.name ?? order.plan}</Fact>
          <Fact label="Inspection period">{order.inspectionDays === 1 ? '1 day' : `${order.inspectionDays} days`}</Fact>
          <Fact label="Buyer">{order.buyerName}</Fact>
          <Fact label="Seller">{order.sellerName}</Fact>
          <Fact label="Placed">
            <When iso={order.createdAt} />
          </Fact>
        </Facts>
      </div>
    </section>
  );
}

function LegFacts({ leg, done, pending }: { leg: PaymentLeg; done: string; pending: string }) {
  const settled = leg.status === 'settled';
  return (
    <Facts className="order-facts">
      <Fact label="Amount">{formatUsd(leg.amount)}</Fact>
      <Fact label="Status">
        <span className={settled ? 'status-badge status-badge--done' : 'status-badge status-badge--pending'}>{settled ? done : pending}</span>
      </Fact>
      {leg.reference && (
        <Fact label="Reference">
          <span className="order-ref">{leg.reference}</span>
        </Fact>
      )}
      {leg.settledAt && (
        <Fact label="Completed">
          <When iso={leg.settledAt} />
        </Fact>
      )}
    </Facts>
  );
}

/** One record of the order under its title; `empty` says why there is none yet. */
function OrderRecord({ testId, title, empty, children }: { testId: string; title: string; empty?: string; children: ReactNode }) {
  return (
    <section className="order-record" data-testid={testId} aria-label={title}>
      <h3 className="order-record__title">{title}</h3>
      {children ?? <p className="muted">{empty}</p>}
    </section>
  );
}

/** Payment, shipment, payout and refund: what the order's money and car did. */
export function OrderRecords({ order }: { order: OrderWithEvents }) {
  const titleId = useId();
  const over = order.status === 'cancelled';
  return (
    <section className="card order-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="order-card__title">
        Payment and delivery
      </h2>
      <div className="tile-grid order-records">
        <OrderRecord testId="order-payment" title="Payment" empty={over ? 'No payment was made.' : 'Not paid yet.'}>
          {order.payment && (
            <Facts className="order-facts">
              <Fact label="Reference">
                <span className="order-ref">{order.payment.reference}</span>
              </Fact>
              <Fact label="Method">{order.payment.method === 'card' ? 'Card' : 'Bank wire'}</Fact>
              <Fact label="Amount charged">{formatUsd(order.payment.amountCharged)}</Fact>
              <Fact label="Paid">
                <When iso={order.payment.paidAt} />
              </Fact>
            </Facts>
          )}
        </OrderRecord>

        <OrderRecord testId="order-shipment" title="Shipment" empty={over ? 'The car was not shipped.' : 'Not shipped yet.'}>
          {order.shipment && (
            <Facts className="order-facts">
              <Fact label="Carrier">{order.shipment.carrier}</Fact>
              <Fact label="Tracking number">
                <span className="order-ref">{order.shipment.trackingNumber}</span>
              </Fact>
              <Fact label="Shipped">
                <When iso={order.shipment.shippedAt} />
              </Fact>
            </Facts>
          )}
        </OrderRecord>

        {order.payout && (
          <OrderRecord testId="order-payout" title="Payout to the seller">
            <LegFacts leg={order.payout} done="Paid out" pending="Being paid out" />
          </OrderRecord>
        )}

        {order.refund && (
          <OrderRecord testId="order-refund" title="Refund to the buyer">
            <LegFacts leg={order.refund} done="Refunded" pending="Being refunded" />
          </OrderRecord>
        )}
      </div>
    </section>
  );
}
