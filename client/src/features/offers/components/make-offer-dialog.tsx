import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { OFFER_EXPIRY_DAYS, OFFER_MESSAGE_MAX, openingOfferRange } from '@common/offer-lifecycle.ts';
import { offerPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { MakeOfferSchema } from '@common/schemas/commerce.ts';
import { issuesByField } from '@common/validation.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { RetrySafeSender } from '../../../lib/retry-key.ts';
import { makeOffer } from '../api/offers-api.ts';
import { amountFromInput, counterProblem } from '../lib/offer-view.ts';
import { applyOffers } from '../stores/offer-store.ts';
import { OfferAmountField } from './offer-amount-field.tsx';
import { OfferDialogForm } from './offer-dialog-form.tsx';

const FIELDS = ['amount', 'message'] as const;
type Field = (typeof FIELDS)[number];

/** The rule, in one sentence, for the car at hand. */
function ruleText(car: { price: number; isAuction: boolean }): string {
  const below = car.isAuction ? 'Name any amount' : `Offer below the asking price of ${formatUsd(car.price)}`;
  return `${below}; the seller may accept, decline or counter, and the offer expires after ${OFFER_EXPIRY_DAYS} days without a reply.`;
}

/** "Make an offer": amount and an optional note; on success the thread opens. */
export function MakeOfferDialog({
  open,
  onClose,
  car,
}: {
  open: boolean;
  onClose: () => void;
  car: { id: number; title: string; price: number; isAuction: boolean };
}) {
  const navigate = useNavigate();
  const messageId = useId();
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sender] = useState(() => new RetrySafeSender<string>());
  const range = openingOfferRange(car);

  function close() {
    setErrors({});
    setFailure(null);
    onClose();
  }

  async function submit() {
    const body = { amount: amountFromInput(amount), ...(message.trim() ? { message: message.trim() } : {}) };
    const found: Partial<Record<Field, string>> = issuesByField(MakeOfferSchema, body);
    if (!found.amount) {
      const outside = counterProblem(body.amount, range);
      if (outside) found.amount = outside.replace('Counter with', 'Offer');
    }
    if (Number.isNaN(body.amount)) found.amount = 'Enter a whole-dollar amount, for example 95000.';
    setErrors(found);
    setFailure(null);
    if (found.amount || found.message) return;
    setBusy(true);
    try {
      const offer = await sender.send(`${body.amount}:${body.message ?? ''}`, (key) => makeOffer(car.id, body, key));
      applyOffers([offer]);
      navigate(offerPath(offer.id));
    } catch (error) {
      const { fields, other } = error instanceof ApiError ? detailsByField(error.details, FIELDS) : { fields: {}, other: [] };
      setErrors(fields);
      setFailure(Object.keys(fields).length > 0 ? (other[0] ?? null) : errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog open={open} busy={busy} onClose={close} title="Make an offer" subtitle={car.title} description={ruleText(car)} testId="make-offer-dialog">
      <OfferDialogForm onSubmit={() => void submit()} onCancel={close} error={failure} busy={busy} submitLabel="Send offer" busyLabel="Sending...">
        <OfferAmountField
          label="Your offer"
          value={amount}
          onChange={(value) => {
            setAmount(value);
            setErrors(({ amount: _stale, ...rest }) => rest);
          }}
          error={errors.amount ?? null}
          hint={car.isAuction ? 'Whole dollars.' : `Whole dollars, up to ${formatUsd(range.max)}.`}
          busy={busy}
          testId="offer-amount"
        />
        <FormField id={messageId} label="Message to the seller" optional error={errors.message} hint={`Up to ${OFFER_MESSAGE_MAX} characters.`}>
          {(aria) => (
            <textarea
              {...aria}
              className="input input--textarea"
              rows={3}
              maxLength={OFFER_MESSAGE_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              disabled={busy}
              data-testid="offer-message"
            />
          )}
        </FormField>
      </OfferDialogForm>
    </ModalDialog>
  );
}
