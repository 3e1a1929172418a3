import { useId } from 'react';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import type { OrderRole } from '../../../lib/order-progress.ts';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import type { OrderWithEvents } from '../api/orders-api.ts';
import { actorPhrase, buildTimeline, STEP_DESCRIPTIONS } from '../lib/timeline.ts';

/** The lifecycle steps the order went through (when, by whom, why) and those still ahead. */
export function OrderTimeline({ order, role }: { order: OrderWithEvents; role: OrderRole }) {
  const titleId = useId();
  const steps = buildTimeline(order.status, order.events);
  return (
    <section className="card order-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="order-card__title">
        Order timeline
      </h2>
      <ol className="step-list order-timeline" data-testid="order-timeline">
        {steps.map((step) => {
          const classes = ['order-step', `order-step--${step.state}`];
          if (step.branch) classes.push('order-step--branch', `order-step--${step.status}`);
          return (
            <li
              key={step.status}
              className={classes.join(' ')}
              data-testid="order-step"
              data-status={step.status}
              data-state={step.state}
              aria-current={step.state === 'current' ? 'step' : undefined}
            >
              <span className="step-list__marker order-step__marker" aria-hidden="true">
                {step.state === 'done' && <CheckIcon size={14} />}
              </span>
              <div className="order-step__body">
                <p className="cluster order-step__title">
                  {orderStatusLabel(step.status)}
                  {step.state === 'current' && <span className="tag order-step__now">Now</span>}
                  {step.state === 'upcoming' && <span className="sr-only"> (not yet)</span>}
                </p>
                <p className="order-step__text">{STEP_DESCRIPTIONS[step.status]}</p>
                {step.at && (
                  <p className="order-step__meta">
                    <time dateTime={step.at}>{formatDateTime(step.at)}</time>
                    {step.actor && <> · {actorPhrase(step.actor, role)}</>}
                  </p>
                )}
                {step.note && <p className="order-step__note">{step.note}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
