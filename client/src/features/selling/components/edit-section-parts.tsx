import type { CarDetail } from '../api/selling-api.ts';

/** What each section of the edit screen is given: the car, whether it is locked, and what to do with the answer. */
export interface EditSectionProps {
  car: CarDetail;
  locked: boolean;
  onSaved: (car: CarDetail) => void;
  onRefused: (error: unknown, show: (message: string) => void) => void;
}

/** The photo and document sections send each change at once, then read the listing again. */
export interface EditFilesSectionProps extends Omit<EditSectionProps, 'onSaved'> {
  refresh: () => Promise<void>;
}

/** What a section's last save said. */
export interface SaveStatus {
  tone: 'success' | 'error';
  text: string;
}

/** The foot of a section saved as a whole: what the last save said (announced), then its button. */
export function SaveActions({ status, statusTestId, saving, locked, label }: { status: SaveStatus | null; statusTestId: string; saving: boolean; locked: boolean; label: string }) {
  return (
    <div className="sell-actions">
      <p className={status?.tone === 'error' ? 'sell-actions__status is-error' : 'sell-actions__status'} role="status" data-testid={statusTestId}>
        {status?.text ?? ''}
      </p>
      <button type="submit" className="btn btn--primary btn--lg" disabled={saving || locked}>
        {saving ? 'Saving...' : label}
      </button>
    </div>
  );
}
