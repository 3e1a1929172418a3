import { useCallback, useEffect, useId, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { SignedIn } from '../../../components/signed-in.tsx';
import { ConnectionBanner } from '../../../components/ui/connection-banner.tsx';
import { Countdown } from '../../../components/ui/countdown.tsx';
import { ArrowLeftIcon } from '../../../components/ui/icons.tsx';
import { NotFoundPage, ScreenError, ScreenLoading } from '../../../components/ui/load-state.tsx';
import { nextStepText, orderRole, roleLabel, type OrderRole } from '../../../lib/order-progress.ts';
import { orderStatusLabel, orderStatusTone } from '../../../lib/order-status.ts';
import { parseId } from '@common/ids.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import type { OrderWithEvents } from '../api/orders-api.ts';
import { orderDeadline, type RunningDeadline } from '../lib/deadline.ts';
import { closeOrder, openOrder, syncOrder, useOrderStore, type OrderEntry } from '../stores/order-store.ts';
import { InspectionChecklist } from './inspection-checklist.tsx';
import { OrderActions } from './order-actions.tsx';
import { OrderRecords, OrderSummary } from './order-details.tsx';
import { OrderTimeline } from './order-timeline.tsx';
import './orders.css';

/** `/orders/:id`: one escrow order for its buyer or seller; anyone signed out goes to /login and back. */
export function OrderScreen() {
  const orderId = parseId(useParams().id);
  return (
    <SignedIn>
      {(user) =>
        orderId === null ? (
          <OrderNotFound />
        ) : (
          // A new user (signed in elsewhere) starts from a fresh read.
          <LiveOrder key={`${user.id}:${orderId}`} orderId={orderId} userId={user.id} />
        )
      }
    </SignedIn>
  );
}

function useOrder(orderId: number): OrderEntry | undefined {
  useEffect(() => {
    openOrder(orderId);
    return () => closeOrder(orderId);
  }, [orderId]);
  return useOrderStore((s) => s.entries[orderId]);
}

function LiveOrder({ orderId, userId }: { orderId: number; userId: number }) {
  const entry = useOrder(orderId);
  if (entry?.status === 'not-found') return <OrderNotFound />;
  if (entry?.status === 'ready' && entry.order) return <OrderView order={entry.order} role={orderRole(entry.order, userId)} />;
  if (entry?.status === 'error') {
    return <ScreenError title={`Order #${orderId}`} message={entry.error ?? ''} onRetry={() => void syncOrder(orderId)} />;
  }
  return <ScreenLoading title={`Order #${orderId}`} label="Loading order..." />;
}

function OrderNotFound() {
  return (
    <NotFoundPage titleId="order-not-found-title" title="Order Not Found" action={{ to: '/dashboard?tab=orders', label: 'Your Orders' }}>
      There is no such order among yours.
    </NotFoundPage>
  );
}

function OrderView({ order, role }: { order: OrderWithEvents; role: OrderRole }) {
  useDocumentTitle(`Order #${order.id}`);
  const titleId = useId();
  const nextId = useId();
  const deadline = orderDeadline(order);
  const nextRef = useRef<HTMLParagraphElement>(null);
  // After a move the button (or dialog) that made it is gone: continue from the new next step.
  const focusNextStep = useCallback(() => {
    requestAnimationFrame(() => nextRef.current?.focus());
  }, []);
  const carName = `${order.car.year} ${order.car.make} ${order.car.model}`;

  return (
    <div className="order-page" data-testid="order-page" data-status={order.status}>
      <ConnectionBanner />
      <section className="order-hero" aria-labelledby={titleId}>
        <div className="container order-hero__inner">
          <Link to="/dashboard?tab=orders" className="back-link order-hero__back">
            <ArrowLeftIcon size={18} />
            Your orders
          </Link>
          <p className="eyebrow">Escrow order · {roleLabel(role)}</p>
          <div className="order-hero__heading">
            <h1 id={titleId} className="order-hero__title">
              Order #{order.id}
            </h1>
            <span className={`status-badge status-badge--${orderStatusTone(order.status)} order-hero__status`} data-testid="order-status">
              {orderStatusLabel(order.status)}
            </span>
          </div>
          <p className="order-hero__lead">{carName}</p>
        </div>
      </section>

      <div className="container over-band">
        <div className="order-grid">
          <section className="card order-card order-next accent-bar order-grid__next" aria-labelledby={nextId}>
            <h2 id={nextId} className="caps-label">
              Next step
            </h2>
            <p ref={nextRef} className="order-next__text" data-testid="order-next-step" aria-live="polite" tabIndex={-1}>
              {nextStepText(order, role)}
            </p>
            {deadline && <DeadlineCountdown deadline={deadline} />}
            <OrderActions order={order} role={role} onMoved={focusNextStep} />
          </section>
          {order.status !== 'cancelled' && (
            <div className="order-grid__checklist">
              <InspectionChecklist order={order} role={role} />
            </div>
          )}
          <div className="order-grid__side">
            <OrderSummary order={order} />
          </div>
          <div className="order-grid__timeline">
            <OrderTimeline order={order} role={role} />
          </div>
          <div className="order-grid__records">
            <OrderRecords order={order} />
          </div>
        </div>
      </div>
    </div>
  );
}

const DEADLINE_WORDS: Record<RunningDeadline['kind'], { left: string; until: string; over: string }> = {
  payment: { left: 'Time left to pay', until: 'Pay by', over: 'The payment window has ended; the order is being cancelled.' },
  inspection: {
    left: 'Inspection time left',
    until: 'Ends',
    over: 'The inspection period has ended; without a dispute the car counts as accepted.',
  },
};

/** A live countdown (on the server's clock) to the deadline the order runs against. */
function DeadlineCountdown({ deadline }: { deadline: RunningDeadline }) {
  const words = DEADLINE_WORDS[deadline.kind];
  return (
    <Countdown
      variant="deadline"
      endsAt={deadline.at}
      label={words.left}
      untilLabel={words.until}
      overText={words.over}
      testId="order-countdown"
    />
  );
}
