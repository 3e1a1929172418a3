import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ESCROW_PLANS, amountCharged } from '@common/escrow-plans.ts';
import { orderPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { MoneySummary } from '../../../components/ui/money-summary.tsx';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import type { Order } from '../api/orders.ts';
import { BuyForm } from './buy-escrow-form.tsx';
import './buy-with-escrow.css';
import { useSessionDependent } from '../../../lib/use-hydrated.ts';

/**
 * "Buy with Escrow" for one car: a button that opens a dialog where a signed-in, verified buyer
 * picks an escrow plan (pre-selected from the Escrow page), sees price, fee and total, and places
 * the order (`POST /api/orders`, amount = the asking price). Signed out, a sign-in link instead.
 *
 * Self-contained: mount it anywhere with the car's id, asking price and title. `onPlaced` hears of
 * the new order; `onStale` is asked to re-read the car when the server says its price changed.
 * Without `showTrigger` only the dialog stays (e.g. while it shows the order just placed).
 */
export function BuyWithEscrow({
  carId,
  price,
  title,
  showTrigger = true,
  onPlaced,
  onStale,
}: {
  carId: number;
  price: number;
  title: string;
  showTrigger?: boolean;
  onPlaced?: (order: Order) => void;
  onStale?: () => void;
}) {
  const location = useLocation();
  const signedIn = useSessionStore((s) => s.isAuthenticated && s.user !== null);
  const sessionDependent = useSessionDependent();
  const [open, setOpen] = useState(false);
  // The order placed from the dialog now open, shown until it closes.
  const [placed, setPlaced] = useState<Order | null>(null);

  if (!signedIn) {
    if (!showTrigger) return null;
    const from = `${location.pathname}${location.search}${location.hash}`;
    return (
      <Link to="/login" state={{ from }} className="btn btn--gold btn--block buy-escrow__trigger" {...sessionDependent}>
        <ShieldCheckIcon size={18} />
        Sign in to Buy with Escrow
      </Link>
    );
  }

  function openDialog() {
    setPlaced(null);
    setOpen(true);
  }

  const close = () => setOpen(false);

  return (
    <>
      {showTrigger && (
        <button type="button" className="btn btn--gold btn--block buy-escrow__trigger" onClick={openDialog} aria-haspopup="dialog">
          <ShieldCheckIcon size={18} />
          Buy with Escrow
        </button>
      )}
      <ModalDialog
        open={open}
        onClose={close}
        title={placed ? 'Order Placed' : 'Buy with Escrow'}
        subtitle={title}
        wide
        testId="buy-with-escrow-dialog"
      >
        {placed ? (
          <OrderPlaced order={placed} onClose={close} />
        ) : (
          // Rendered afresh on every opening, with the plan re-read from the Escrow store.
          <BuyForm
            carId={carId}
            price={price}
            onPlaced={(order) => {
              setPlaced(order);
              onPlaced?.(order);
            }}
            onStale={onStale}
          />
        )}
      </ModalDialog>
    </>
  );
}

/** The order just placed: what it costs, and where to follow it. */
function OrderPlaced({ order, onClose }: { order: Order; onClose: () => void }) {
  return (
    <>
      <Alert tone="success" title={`Order #${order.id} is placed`} testId="order-placed">
        <p>
          Status: <strong>{orderStatusLabel(order.status)}</strong>. Pay{' '}
          <strong>{formatUsd(amountCharged(order))}</strong> into escrow to reserve the car; the seller is
          paid only after you approve it.
        </p>
      </Alert>
      <MoneySummary
        price={order.amount}
        fee={order.escrowFee}
        rows={
          <div>
            <dt>Protection plan</dt>
            <dd>{ESCROW_PLANS[order.plan].name}</dd>
          </div>
        }
      />
      <div className="buy-escrow__actions">
        <Link to={orderPath(order.id)} className="btn btn--primary btn--block">
          Go to your order
        </Link>
        <Link to="/dashboard?tab=orders" className="btn btn--outline btn--block">
          All your orders
        </Link>
        <button type="button" className="btn btn--outline btn--block" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}
