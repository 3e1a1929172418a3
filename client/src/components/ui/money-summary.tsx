import type { ReactNode } from 'react';
import { amountCharged } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';

/**
 * What an escrow purchase costs: the vehicle price, the escrow fee and their total (what the
 * buyer pays into escrow). `rows` come first (the plan, say).
 */
export function MoneySummary({
  price,
  fee,
  feeLabel = 'Escrow fee',
  rows,
  className,
  testId,
  totalTestId,
  live = false,
}: {
  price: number;
  fee: number;
  feeLabel?: ReactNode;
  rows?: ReactNode;
  className?: string;
  testId?: string;
  totalTestId?: string;
  /** Announce changes (the total follows a choice made beside it). */
  live?: boolean;
}) {
  return (
    <dl className={className ? `money-summary ${className}` : 'money-summary'} data-testid={testId} aria-live={live ? 'polite' : undefined}>
      {rows}
      <div>
        <dt>Vehicle price</dt>
        <dd>{formatUsd(price)}</dd>
      </div>
      <div>
        <dt>{feeLabel}</dt>
        <dd>{formatUsd(fee)}</dd>
      </div>
      <div className="money-summary__total">
        <dt>Total</dt>
        <dd data-testid={totalTestId}>{formatUsd(amountCharged({ amount: price, escrowFee: fee }))}</dd>
      </div>
    </dl>
  );
}
