import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { OrderActor, OperatorAction } from '@common/order-lifecycle.ts';
import { amountCharged } from '@common/escrow-plans.ts';
import { ResolveDisputeSchema } from '@common/schemas/admin.ts';
import { carPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { issuesByField } from '@common/validation.ts';
import { Fact, Facts } from '../../../components/ui/facts.tsx';
import { orderStatusLabel } from '../../../lib/order-status.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { getDisputes, resolveDispute, type DisputedOrder } from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { DisputeDossierView } from './dispute-dossier.tsx';
import { ReasonDialog, type MoveWords } from './reason-dialog.tsx';
import { ConsoleSection, ConsoleStatus, LoadedList, MoveButton, useStatusFocusAfterMove, type SectionProps } from './section-parts.tsx';
import './disputes-section.css';

const ACTOR_LABELS: Record<OrderActor, string> = { buyer: 'Buyer', seller: 'Seller', system: 'LuxeMotors', operator: 'Escrow team' };

const OUTCOMES: Record<OperatorAction, MoveWords & { done: string; description: (o: DisputedOrder) => string }> = {
  release: {
    button: 'Release to Seller',
    title: 'Release the funds to the seller?',
    confirm: 'Release Funds',
    busy: 'Releasing...',
    danger: true,
    done: 'released to the seller',
    description: (o) => `${formatUsd(o.amount)} is paid out to ${o.sellerName} and the sale is complete. The buyer keeps the car. This cannot be undone.`,
  },
  refund: {
    button: 'Refund Buyer',
    title: 'Refund the buyer?',
    confirm: 'Refund Buyer',
    busy: 'Refunding...',
    danger: true,
    done: 'refunded to the buyer',
    description: (o) =>
      `${formatUsd(amountCharged(o))} goes back to ${o.buyerName}, the car returns to the seller and is listed again. This cannot be undone.`,
  },
};

const carTitle = (o: DisputedOrder) => `${o.car.year} ${o.car.make} ${o.car.model}`;

/** The dispute's own words: the note of the move that opened it. */
function disputeOpening(order: DisputedOrder) {
  return [...order.events].reverse().find((event) => event.to === 'disputed') ?? null;
}

/** Open disputes, oldest first: each order's history and the parties' words, and the two ways out. */
export function DisputesSection({ titleId }: SectionProps) {
  const { resource, retry, mutate } = useConsoleResource('admin:disputes', getDisputes);
  const [deciding, setDeciding] = useState<{ order: DisputedOrder; outcome: OperatorAction } | null>(null);
  const [refused, setRefused] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  // A decided dispute leaves the list with its buttons.
  const { status, focusStatusAfterClose } = useStatusFocusAfterMove(deciding !== null);

  function close() {
    setDeciding(null);
    // Refused (another operator was first, say): show the list as it is now.
    if (refused) retry();
    setRefused(false);
  }

  return (
    <ConsoleSection section="disputes" titleId={titleId} onRefresh={retry}>
      <ConsoleStatus ref={status} testId="dispute-resolved">
        {done}
      </ConsoleStatus>
      <LoadedList resource={resource} retry={retry} label="Loading disputes..." empty={{ title: 'No open disputes', text: 'Every disputed order has been decided.' }}>
        {(orders) => (
          <ol className="tile-grid console-cards" aria-label="Open disputes, oldest first">
            {orders.map((order) => (
              <DisputeCard key={order.id} order={order} onDecide={(outcome) => setDeciding({ order, outcome })} />
            ))}
          </ol>
        )}
      </LoadedList>

      {deciding && (
        <ReasonDialog
          move={OUTCOMES[deciding.outcome]}
          onClose={close}
          subtitle={`Order #${deciding.order.id} · ${carTitle(deciding.order)}`}
          description={OUTCOMES[deciding.outcome].description(deciding.order)}
          check={(reason) => issuesByField(ResolveDisputeSchema, { outcome: deciding.outcome, reason }).reason}
          testId="resolve-dispute-dialog"
          onConfirm={async (reason) => {
            const { order, outcome } = deciding;
            try {
              await resolveDispute(order.id, { outcome, reason });
            } catch (error) {
              setRefused(true);
              throw error;
            }
            mutate((list) => list.filter((o) => o.id !== order.id));
            focusStatusAfterClose();
            setDone(`Order #${order.id}: ${formatUsd(outcome === 'release' ? order.amount : amountCharged(order))} ${OUTCOMES[outcome].done}.`);
          }}
        />
      )}
    </ConsoleSection>
  );
}

function DisputeCard({ order, onDecide }: { order: DisputedOrder; onDecide: (outcome: OperatorAction) => void }) {
  const opening = disputeOpening(order);
  const titleId = `dispute-${order.id}-title`;
  const events = [...order.events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.id - b.id);
  return (
    <li className="console-card dispute-card" aria-labelledby={titleId} data-testid="dispute" data-order-id={order.id}>
      <div className="split-row dispute-card__head">
        <div>
          <h3 id={titleId} className="dispute-card__title">
            Order #{order.id}
          </h3>
          <Link to={carPath(order.car.id)} className="text-link">
            {carTitle(order)}
          </Link>
        </div>
        <span className="status-badge status-badge--problem">{orderStatusLabel(order.status)}</span>
      </div>

      <Facts className="console-facts">
        <Fact label="Buyer">{order.buyerName}</Fact>
        <Fact label="Seller">{order.sellerName}</Fact>
        <Fact label="Price">{formatUsd(order.amount)}</Fact>
        <Fact label="Charged">{formatUsd(amountCharged(order))}</Fact>
        <Fact label="Disputed">{opening ? <time dateTime={opening.at}>{formatDateTime(opening.at)}</time> : '—'}</Fact>
      </Facts>

      {opening?.note && (
        <figure className="dispute-card__claim">
          <blockquote>{opening.note}</blockquote>
          <figcaption>{ACTOR_LABELS[opening.actor]}&apos;s reason for the dispute</figcaption>
        </figure>
      )}

      {order.dossier ? (
        <DisputeDossierView dossier={order.dossier} />
      ) : (
        <p className="muted">This order was placed before listings carried a dossier: there is no checklist to weigh.</p>
      )}

      <div className="dispute-card__history">
        <h4 className="caps-label">Timeline</h4>
        <ol className="dispute-timeline" data-testid="dispute-timeline">
          {events.map((event) => (
            <li key={event.id} className="dispute-timeline__event">
              <p className="dispute-timeline__what">
                <strong>{orderStatusLabel(event.to)}</strong>
                <span className="dispute-timeline__meta">
                  {' '}
                  · {ACTOR_LABELS[event.actor]} · <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                </span>
              </p>
              {event.note && event.id !== opening?.id && <p className="dispute-timeline__note">{event.note}</p>}
              {event.note && event.id === opening?.id && <p className="dispute-timeline__note dispute-timeline__note--quoted">The reason quoted above.</p>}
            </li>
          ))}
        </ol>
      </div>

      <div className="cluster dispute-card__actions">
        <MoveButton label={OUTCOMES.release.button} onClick={() => onDecide('release')} />
        <MoveButton label={OUTCOMES.refund.button} tone="dark" onClick={() => onDecide('refund')} />
      </div>
    </li>
  );
}
