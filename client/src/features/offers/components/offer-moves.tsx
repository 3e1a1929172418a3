import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Order } from '@common/schemas/orders.ts';
import { OFFER_EXPIRY_DAYS, type OfferParty, type OfferPartyMove } from '@common/offer-lifecycle.ts';
import { orderPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { OFFER_MOVE_BODIES } from '@common/schemas/commerce.ts';
import { issuesByField } from '@common/validation.ts';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { RetrySafeSender } from '../../../lib/retry-key.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getAskingPrice, type Offer } from '../api/offers-api.ts';
import { amountFromInput, carTitle, counterProblem, counterRangeFor, moveConsequence, movesToShow } from '../lib/offer-view.ts';
import { runOfferMove } from '../stores/offer-store.ts';
import { OfferAmountField } from './offer-amount-field.tsx';
import { OfferDialogForm } from './offer-dialog-form.tsx';

const MOVES: Record<OfferPartyMove, { label: string; title: string; busy: string; button: string; tone: 'primary' | 'gold' | 'dark' }> = {
  accept: { label: 'Accept', title: 'Accept this offer', busy: 'Accepting...', button: 'btn btn--gold', tone: 'gold' },
  counter: { label: 'Counter', title: 'Counter-offer', busy: 'Sending...', button: 'btn btn--primary', tone: 'primary' },
  decline: { label: 'Decline', title: 'Decline this offer', busy: 'Declining...', button: 'btn btn--outline', tone: 'dark' },
  withdraw: { label: 'Withdraw', title: 'Withdraw your offer', busy: 'Withdrawing...', button: 'btn btn--outline', tone: 'dark' },
};

/** The seller's asking price for counters (null until read, and for the buyer, whose counters do not need it). */
function useAskingPrice(offer: Offer, party: OfferParty): number | null {
  // Per offer: a second-chance offer's ceiling is its own opening amount, not the car's.
  const { resource } = useResource(party === 'seller' ? `asking:${offer.carId}:${offer.id}` : 'asking:none', (signal) =>
    party === 'seller' ? getAskingPrice(offer, signal) : Promise.resolve(null),
  );
  return resource.status === 'success' ? resource.data : null;
}

/**
 * The viewer's moves on an open offer, each behind a dialog that says what it does. `onMoved`
 * hears of a move made here that stays on the thread (all but accept, which opens the order).
 */
export function OfferMoves({ offer, party, onMoved }: { offer: Offer; party: OfferParty; onMoved?: () => void }) {
  const navigate = useNavigate();
  const [opened, setOpened] = useState<OfferPartyMove | null>(null);
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sender] = useState(() => new RetrySafeSender<string>());
  const askingPrice = useAskingPrice(offer, party);
  const moves = movesToShow(offer, party, askingPrice);
  // A dialog whose move is no longer possible (the other party moved meanwhile) closes by itself.
  const dialog = opened && moves.includes(opened) ? opened : null;
  const range = counterRangeFor(offer, party, askingPrice);

  if (moves.length === 0) return null;

  function editAmount(value: string) {
    setAmount(value);
    setAmountError(null);
  }

  function open(move: OfferPartyMove) {
    setAmount('');
    setAmountError(null);
    setFailure(null);
    setOpened(move);
  }

  async function submit(move: OfferPartyMove) {
    let body: { amount: number } | Record<string, never> = {};
    if (move === 'counter') {
      const value = amountFromInput(amount);
      const problem = Number.isNaN(value)
        ? 'Enter a whole-dollar amount, for example 95000.'
        : (issuesByField(OFFER_MOVE_BODIES.counter, { amount: value }).amount ?? counterProblem(value, range));
      setAmountError(problem);
      if (problem) return;
      body = { amount: value };
    }
    setBusy(true);
    setFailure(null);
    try {
      const result = await sender.send(`${offer.id}:${move}:${JSON.stringify(body)}`, (key) =>
        runOfferMove(offer.id, move, body as never, key),
      );
      setOpened(null);
      if (move === 'accept') navigate(orderPath((result as Order).id));
      else onMoved?.();
    } catch (error) {
      const { fields } = error instanceof ApiError ? detailsByField(error.details, ['amount'] as const) : { fields: {} as { amount?: string } };
      if (fields.amount) setAmountError(fields.amount);
      else setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const words = dialog ? MOVES[dialog] : null;
  return (
    <div className="offer-moves">
      <div className="cluster offer-moves__buttons">
        {moves.map((move) => (
          <button key={move} type="button" className={MOVES[move].button} aria-haspopup="dialog" onClick={() => open(move)} data-testid={`offer-${move}`}>
            {MOVES[move].label}
          </button>
        ))}
      </div>
      <ModalDialog
        open={dialog !== null}
        busy={busy}
        onClose={() => setOpened(null)}
        title={words?.title ?? ''}
        subtitle={`${carTitle(offer.car)} · Offer #${offer.id}`}
        description={
          dialog === 'counter'
            ? `Name an amount between ${formatUsd(range.min)} and ${formatUsd(range.max)}. ${party === 'seller' ? offer.buyer.name : offer.sellerName} then has ${OFFER_EXPIRY_DAYS} days to answer.`
            : dialog
              ? moveConsequence(dialog, offer, party)
              : undefined
        }
        testId="offer-move-dialog"
      >
        {dialog && words && (
          <OfferDialogForm
            onSubmit={() => void submit(dialog)}
            onCancel={() => setOpened(null)}
            error={failure}
            busy={busy}
            submitLabel={dialog === 'accept' ? `Accept ${formatUsd(offer.amount)}` : words.label}
            busyLabel={words.busy}
            tone={words.tone}
            startOnCancel={dialog !== 'counter'}
          >
            {dialog === 'counter' && (
              <OfferAmountField label="Your counter-offer" value={amount} onChange={editAmount} error={amountError} busy={busy} testId="counter-amount" />
            )}
          </OfferDialogForm>
        )}
      </ModalDialog>
    </div>
  );
}
