import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ESCROW_PLANS, type EscrowPlanId } from '@common/escrow-plans.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { formatUsd } from '@common/pricing.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { MoneySummary } from '../../../components/ui/money-summary.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import type { AnyErrorCode } from '../../../lib/client-error-codes.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { placeOrder, type Order } from '../api/orders.ts';
import { coverageLabel, guaranteeLabel, orderTotals, PLAN_LIST, planCovers, planFor } from '../lib/plans.ts';
import { useEscrowPlanStore } from '../stores/escrow-plan-store.ts';

/** The plan choice, the totals and Place Order. */
export function BuyForm({
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
  const [error, setError] = useState<{ message: string; code?: AnyErrorCode } | null>(null);

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
      if (code === ErrorCode.PRICE_CHANGED) {
        const now = (err as ApiError).details as { price?: unknown } | undefined;
        if (typeof now?.price === 'number' && Number.isSafeInteger(now.price)) setRepriced({ from: listedPrice, to: now.price });
        onStale?.();
      } else if (code === ErrorCode.CAR_NOT_AVAILABLE) {
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
          {error.code === ErrorCode.PRICE_CHANGED && repriced && (
            <p>
              New asking price: <strong data-testid="new-price">{formatUsd(repriced.to)}</strong>. The total
              below includes it.
            </p>
          )}
          {error.code === ErrorCode.ORDER_EXISTS && (
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
