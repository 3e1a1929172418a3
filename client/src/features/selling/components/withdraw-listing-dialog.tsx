import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { withdrawListing, type CarDetail } from '../api/selling-api.ts';

/**
 * "Withdraw this listing?" (or, for a draft, "Discard this draft?"): the car leaves the market
 * for good. `onWithdrawn` hears of the car as it is now; `onRefused` of a refusal, which the
 * dialog also shows.
 */
export function WithdrawListingDialog({
  carId,
  carName,
  open,
  draft = false,
  onClose,
  onWithdrawn,
  onRefused,
}: {
  carId: number;
  carName: string;
  open: boolean;
  draft?: boolean;
  onClose: () => void;
  onWithdrawn: (car: CarDetail) => void;
  onRefused?: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Every opening starts without the last one's error.
  const [openedFor, setOpenedFor] = useState<number | null>(open ? carId : null);
  const showing = open ? carId : null;
  if (showing !== openedFor) {
    setOpenedFor(showing);
    setError(null);
  }

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      onWithdrawn(await withdrawListing(carId));
    } catch (err) {
      setError(errorMessage(err));
      onRefused?.(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog
      open={open}
      busy={busy}
      onClose={onClose}
      title={draft ? 'Discard this draft?' : 'Withdraw this listing?'}
      subtitle={carName}
      description={
        draft
          ? 'The draft is withdrawn and can no longer be published.'
          : 'The car leaves the market at once. Unpaid orders for it are cancelled and everyone watching it is told. A withdrawn listing cannot be put back.'
      }
      testId="withdraw-dialog"
    >
      {error && (
        <Alert tone="error">
          <p>{error}</p>
        </Alert>
      )}
      <div className="modal-dialog__actions">
        <button type="button" className="btn btn--outline" onClick={onClose} disabled={busy} data-autofocus>
          Keep Listing
        </button>
        <button type="button" className="btn btn--danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Withdrawing...' : draft ? 'Discard Draft' : 'Withdraw Listing'}
        </button>
      </div>
    </ModalDialog>
  );
}
