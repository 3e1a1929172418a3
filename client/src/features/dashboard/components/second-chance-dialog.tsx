import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SECOND_CHANCE_EXPIRY_DAYS } from '@common/offer-lifecycle.ts';
import { offerPath } from '@common/paths.ts';
import { formatUsd } from '@common/pricing.ts';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { RetrySafeSender } from '../../../lib/retry-key.ts';
import { applyOffers, OfferDialogForm, sendSecondChance } from '../../offers/index.ts';
import type { MyListing } from '../api/my-listings.ts';
import { carName } from '../lib/dashboard-format.ts';

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** "Offer to runner-up": confirms, sends the second-chance offer, then opens its thread. */
export function SecondChanceDialog({ listing, onClose }: { listing: MyListing | null; onClose: () => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sender] = useState(() => new RetrySafeSender<number>());
  const runnerUp = listing?.secondChance ?? null;

  function close() {
    setFailure(null);
    onClose();
  }

  async function send() {
    if (!listing) return;
    setBusy(true);
    setFailure(null);
    try {
      const offer = await sender.send(listing.id, (key) => sendSecondChance(listing.id, key));
      applyOffers([offer]);
      navigate(offerPath(offer.id));
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog
      open={listing !== null && runnerUp !== null}
      busy={busy}
      onClose={close}
      title="Offer to the runner-up"
      subtitle={listing ? carName(listing) : undefined}
      description={
        runnerUp ? `Offer the car to ${runnerUp.buyerName} at ${formatUsd(runnerUp.amount)}? They have ${days(SECOND_CHANCE_EXPIRY_DAYS)} to accept.` : undefined
      }
      testId="second-chance-dialog"
    >
      <OfferDialogForm onSubmit={() => void send()} onCancel={close} error={failure} busy={busy} submitLabel="Send offer" busyLabel="Sending..." tone="gold" startOnCancel />
    </ModalDialog>
  );
}
