import { useId, useState, type FormEvent } from 'react';
import { ErrorCode } from '@common/error-codes.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { updateListing, type CarDetail } from '../api/selling-api.ts';
import { useListingForm } from '../hooks/use-listing-form.ts';
import { EDITABLE_FIELDS, errorsFromDetails, listingChanges, listingFormValues, type ListingField, type ListingFormValues } from '../lib/listing-form.ts';
import { DescriptionFields, PriceFields } from './listing-fields.tsx';

const IMMEDIATE_FIELDS: readonly ListingField[] = ['condition', 'features'];

/** What each section of the edit screen is given: the car, whether it is locked, and what to do with the answer. */
export interface EditSectionProps {
  car: CarDetail;
  locked: boolean;
  onSaved: (car: CarDetail) => void;
  onRefused: (error: unknown, show: (message: string) => void) => void;
}

/** The details a published listing can still change, saved with only what changed. */
export function EditListingDetails({ car, locked, onSaved, onRefused }: EditSectionProps) {
  const idBase = useId();
  const form = useListingForm({ idBase, initial: () => listingFormValues(car), fields: EDITABLE_FIELDS, immediate: IMMEDIATE_FIELDS });
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  function onChange<F extends ListingField>(field: F, value: ListingFormValues[F]) {
    form.onChange(field, value);
    setStatus(null);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || locked) return;
    const { values, valid } = form.submit({ heedServerErrors: false });
    if (!valid) return;
    const changes = listingChanges(values, car);
    if (Object.keys(changes).length === 0) {
      setStatus({ tone: 'success', text: 'No changes to save.' });
      return;
    }
    setSaving(true);
    setStatus(null);
    try {
      const updated = await updateListing(car.id, changes);
      onSaved(updated);
      form.setValues(listingFormValues(updated));
      setStatus({ tone: 'success', text: 'Changes saved.' });
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.VALIDATION_FAILED) form.refuse(errorsFromDetails(error.details).fields);
      onRefused(error, (text) => setStatus({ tone: 'error', text }));
    } finally {
      setSaving(false);
    }
  }

  const fields = { idBase, values: form.values, errors: form.errors, onChange, onBlur: form.onBlur, disabled: locked };
  return (
    <form className="card sell-card" onSubmit={save} noValidate aria-labelledby={`${idBase}-title`}>
      <h2 id={`${idBase}-title`} className="sell-card__title">
        Details
      </h2>
      <p className="muted edit-listing__fixed">
        Make, model, year and body style stay as listed. To change them, withdraw this listing and list the car again.
      </p>
      <PriceFields {...fields} />
      <DescriptionFields {...fields} featureDraft={form.featureDraft} onFeatureDraft={form.setFeatureDraft} />
      <div className="sell-actions">
        <p className={status?.tone === 'error' ? 'sell-actions__status is-error' : 'sell-actions__status'} role="status" data-testid="save-status">
          {status?.text ?? ''}
        </p>
        <button type="submit" className="btn btn--primary btn--lg" disabled={saving || locked}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}
