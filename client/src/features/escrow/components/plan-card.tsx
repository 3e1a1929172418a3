import { useId } from 'react';
import type { EscrowPlan } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';
import { CheckIcon, ClockIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { coverageLabel, guaranteeLabel, insuranceLabel } from '../lib/plans.ts';

/** One plan of the Escrow page, with its Select Plan toggle. */
export function PlanCard({
  plan,
  selected,
  onSelect,
}: {
  plan: EscrowPlan;
  selected: boolean;
  onSelect: () => void;
}) {
  const nameId = useId();
  const classes = ['plan-card', plan.popular && 'plan-card--popular', selected && 'plan-card--selected']
    .filter(Boolean)
    .join(' ');
  return (
    <article className={classes} aria-labelledby={nameId} data-testid="plan-card" data-plan={plan.id}>
      {plan.popular && <p className="plan-card__ribbon">Most Popular</p>}
      <div className="split-row plan-card__head">
        <h3 id={nameId} className="plan-card__name">
          {plan.name}
        </h3>
        {selected && (
          <span className="plan-card__chosen">
            <CheckIcon size={14} />
            Selected
          </span>
        )}
      </div>
      <p className="plan-card__price">
        <span className="plan-card__amount">{formatUsd(plan.price)}</span>
        <span className="plan-card__per">escrow fee</span>
      </p>
      <p className="plan-card__coverage">For purchases {coverageLabel(plan)}</p>
      <ul className="plan-card__facts">
        <li>
          <ClockIcon size={18} />
          {guaranteeLabel(plan)}
        </li>
        <li className={plan.insurance ? undefined : 'plan-card__fact--none'}>
          <ShieldCheckIcon size={18} />
          {insuranceLabel(plan)}
        </li>
      </ul>
      <ul className="plan-card__features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <CheckIcon size={16} />
            {feature}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={selected ? 'btn btn--gold btn--block plan-card__select' : 'btn btn--outline btn--block plan-card__select'}
        aria-pressed={selected}
        aria-label={`Select Plan: ${plan.name}`}
        onClick={onSelect}
      >
        {selected && <CheckIcon size={18} />}
        Select Plan
      </button>
    </article>
  );
}
