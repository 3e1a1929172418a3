import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ESCROW_PLANS, type EscrowPlanId } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckIcon, CloseIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { placeOrder, type Order } from '../api/orders.ts';
import { coverageLabel, guaranteeLabel, orderTotals, PLAN_LIST, planCovers, planFor } from '../lib/plans.ts';
import { useEscrowPlanStore } from '../stores/escrow-plan-store.ts';
import './buy-with-escrow.css';

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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [openCount, setOpenCount] = useState(0);

  // Opened after the fresh form has rendered, so the dialog focuses its first control.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (openCount > 0 && dialog && !dialog.open) dialog.showModal();
  }, [openCount]);

  if (!signedIn) {
    if (!showTrigger) return null;
    const from = `${location.pathname}${location.search}${location.hash}`;
    return (
      <Link to="/login" state={{ from }} className="btn btn--gold btn--block buy-escrow__trigger">
        <ShieldCheckIcon size={18} />
        Sign in to Buy with Escrow
      </Link>
    );
  }

  function open() {
    setOpenCount((n) => n + 1);
  }

  function close() {
    dialogRef.current?.close();
  }

  function onBackdropClick(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget) close();
  }

  return (
    <>
      {showTrigger && (
        <button type="button" className="btn btn--gold btn--block buy-escrow__trigger" onClick={open} aria-haspopup="dialog">
          <ShieldCheckIcon size={18} />
          Buy with Escrow
        </button>
      )}
      <dialog
        ref={dialogRef}
        className="buy-escrow"
        aria-labelledby={titleId}
        onClick={onBackdropClick}
        data-testid="buy-with-escrow-dialog"
      >
        {openCount > 0 && (
          <BuyDialog
            // A fresh form on every opening, with the plan re-read from the Escrow store.
            key={openCount}
            titleId={titleId}
            onClose={close}
            carId={carId}
            price={price}
            title={title}
            onPlaced={onPlaced}
            onStale={onStale}
          />
        )}
      </dialog>
    </>
  );
}

function BuyDialog({
  titleId,
  onClose: close,
  carId,
  price: listedPrice,
  title,
  onPlaced,
  onStale,
}: {
  titleId: string;
  onClose: () => void;
  carId: number;
  price: number;
  title: string;
  onPlaced?: (order: Order) => void;
  onStale?: () => void;
}) {
  const planName = useId();
  const user = useSessionStore((s) => s.user);
  const preferred = useEscrowPlanStore((s) => s.plan);
  const setPreferred = useEscrowPlanStore((s) => s.setPlan);
  // The server's newer price (409 PRICE_CHANGED) stands until the car's own copy catches up.
  const [repriced, setRepriced] = useState<{ from: number; to: number } | null>(null);
  const price = repriced && repriced.from === listedPrice ? repriced.to : listedPrice;
  const [picked, setPicked] = useState<EscrowPlanId | null>(() => planFor(listedPrice, preferred));
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<{ message: string; code?: string } | null>(null);
  const [order, setOrder] = useState<Order | null>(null);

  // A new price may be beyond the picked plan's limit: then the cheapest plan that covers it.
  const choice = picked && planCovers(ESCROW_PLANS[picked], price) ? picked : planFor(price, picked ?? preferred);
  const verified = user?.email_verified ?? false;
  const totals = choice ? orderTotals(price, choice) : null;

  function choose(plan: EscrowPlanId) {
    setPicked(plan);
    setPreferred(plan);
    setError(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!choice || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      const placed = await placeOrder({ carId, amount: price, plan: choice });
      setOrder(placed);
      onPlaced?.(placed);
    } catch (err) {
      const code = err instanceof ApiError ? err.code : undefined;
      if (code === 'PRICE_CHANGED') {
        const now = (err as ApiError).details as { price?: unknown } | undefined;
        if (typeof now?.price === 'number' && Number.isSafeInteger(now.price)) setRepriced({ from: listedPrice, to: now.price });
        onStale?.();
      } else if (code === 'CAR_NOT_AVAILABLE') {
        onStale?.();
      }
      setError({ message: errorMessage(err), code });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="buy-escrow__panel">
        <header className="buy-escrow__header">
          <div>
            <h2 id={titleId} className="buy-escrow__title">
              {order ? 'Order Placed' : 'Buy with Escrow'}
            </h2>
            <p className="buy-escrow__car">{title}</p>
          </div>
          <button type="button" className="buy-escrow__close" aria-label="Close" onClick={close}>
            <CloseIcon size={20} />
          </button>
        </header>

        {order ? (
          <div className="buy-escrow__body" data-testid="order-placed">
            <Alert tone="success" title={`Order #${order.id} is placed`}>
              <p>
                Status: <strong>{orderStatusLabel(order.status)}</strong>. Pay{' '}
                <strong>{formatUsd(order.amount + order.escrowFee)}</strong> into escrow to reserve the car;
                the seller is paid only after you approve it.
              </p>
            </Alert>
            <dl className="order-summary">
              <div>
                <dt>Protection plan</dt>
                <dd>{ESCROW_PLANS[order.plan].name}</dd>
              </div>
              <div>
                <dt>Vehicle price</dt>
                <dd>{formatUsd(order.amount)}</dd>
              </div>
              <div>
                <dt>Escrow fee</dt>
                <dd>{formatUsd(order.escrowFee)}</dd>
              </div>
              <div className="order-summary__total">
                <dt>Total</dt>
                <dd>{formatUsd(order.amount + order.escrowFee)}</dd>
              </div>
            </dl>
            <div className="buy-escrow__actions">
              <Link to={`/orders/${order.id}`} className="btn btn--primary btn--block">
                Go to your order
              </Link>
              <Link to="/dashboard?tab=orders" className="btn btn--outline btn--block">
                All your orders
              </Link>
              <button type="button" className="btn btn--outline btn--block" onClick={close}>
                Close
              </button>
            </div>
          </div>
        ) : (
          <form className="buy-escrow__body" onSubmit={handleSubmit} noValidate>
            {!verified && (
              <Alert tone="info" title="Verify your email to order">
                <p>
                  Escrow orders need a verified email address. Use the link we emailed you, or send a new one
                  from{' '}
                  <Link to="/dashboard" className="text-link">
                    your dashboard
                  </Link>
                  .
                </p>
              </Alert>
            )}

            <fieldset className="plan-options">
              <legend className="field__label">Choose your protection plan</legend>
              {PLAN_LIST.map((plan) => {
                const covers = planCovers(plan, price);
                const inputId = `${planName}-${plan.id}`;
                return (
                  <div key={plan.id} className={covers ? 'plan-option' : 'plan-option plan-option--disabled'}>
                    <input
                      id={inputId}
                      type="radio"
                      name={planName}
                      value={plan.id}
                      className="plan-option__input"
                      checked={choice === plan.id}
                      disabled={!covers}
                      onChange={() => choose(plan.id)}
                    />
                    <label htmlFor={inputId} className="plan-option__label">
                      <span className="plan-option__name">
                        {plan.name}
                        {plan.popular && <span className="plan-option__tag">Most Popular</span>}
                      </span>
                      <span className="plan-option__fee">{formatUsd(plan.price)}</span>
                      <span className="plan-option__detail">
                        {covers
                          ? `Purchases ${coverageLabel(plan)} · ${guaranteeLabel(plan)}`
                          : `Not available: covers purchases ${coverageLabel(plan)} only`}
                      </span>
                    </label>
                  </div>
                );
              })}
            </fieldset>

            {!choice && (
              <Alert tone="info" title="Above our largest plan">
                <p>
                  This car costs more than any escrow plan covers. Our team can arrange the purchase:{' '}
                  <Link to="/support" className="text-link">
                    contact support
                  </Link>
                  .
                </p>
              </Alert>
            )}

            {totals && choice && (
              <dl className="order-summary" aria-live="polite">
                <div>
                  <dt>Vehicle price</dt>
                  <dd>{formatUsd(totals.price)}</dd>
                </div>
                <div>
                  <dt>Escrow fee ({ESCROW_PLANS[choice].name})</dt>
                  <dd>{formatUsd(totals.fee)}</dd>
                </div>
                <div className="order-summary__total">
                  <dt>Total</dt>
                  <dd data-testid="order-total">{formatUsd(totals.total)}</dd>
                </div>
              </dl>
            )}

            {error && (
              <Alert tone="error" testId="buy-escrow-error">
                <p>{error.message}</p>
                {error.code === 'PRICE_CHANGED' && repriced && (
                  <p>
                    New asking price: <strong data-testid="new-price">{formatUsd(repriced.to)}</strong>. The total
                    below includes it.
                  </p>
                )}
                {error.code === 'ORDER_EXISTS' && (
                  <p>
                    <Link to="/dashboard?tab=orders" className="text-link">
                      See your orders
                    </Link>
                  </p>
                )}
              </Alert>
            )}

            <button
              type="submit"
              className="btn btn--primary btn--block btn--lg"
              disabled={!choice || !verified || submitting}
            >
              {submitting ? 'Placing order...' : 'Place Order'}
            </button>
            <p className="buy-escrow__note">
              <CheckIcon size={16} />
              Nothing is charged now. Your payment goes into escrow and is released to the seller only after you
              approve the car.
            </p>
          </form>
        )}
    </div>
  );
}
