import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ESCROW_PLANS, type EscrowPlanId, amountCharged } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { MoneySummary } from '../../../components/ui/money-summary.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { placeOrder, type Order } from '../api/orders.ts';
import { coverageLabel, guaranteeLabel, orderTotals, PLAN_LIST, planCovers, planFor } from '../lib/plans.ts';
import { useEscrowPlanStore } from '../stores/escrow-plan-store.ts';
import './buy-with-escrow.css';
import { orderPath } from '@common/paths.ts';

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
  const [open, setOpen] = useState(false);
  // The order placed from the dialog now open, shown until it closes.
  const [placed, setPlaced] = useState<Order | null>(null);

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

/** The plan choice, the totals and Place Order. */
function BuyForm({
  carId,
  price: listedPrice,
  onPlaced,
  onStale,
}: {
  carId: number;
  price: number;
  onPlaced: (order: Order) => void;
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
      onPlaced(await placeOrder({ carId, amount: price, plan: choice }));
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
    <form className="modal-dialog__form" onSubmit={handleSubmit} noValidate>
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
                  {plan.popular && <span className="tag plan-option__tag">Most Popular</span>}
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
        <MoneySummary price={totals.price} fee={totals.fee} feeLabel={`Escrow fee (${ESCROW_PLANS[choice].name})`} totalTestId="order-total" live />
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
  );
}
