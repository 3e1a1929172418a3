import { useId, useState, type FormEvent } from 'react';
import { ErrorCode } from '@common/error-codes.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { updateListing } from '../api/selling-api.ts';
import { useListingForm } from '../hooks/use-listing-form.ts';
import { EDITABLE_FIELDS, errorsFromDetails, listingChanges, listingFormValues, type ListingField, type ListingFormValues } from '../lib/listing-form.ts';
import { SaveActions, type EditSectionProps, type SaveStatus } from './edit-section-parts.tsx';
import { DescriptionFields, PriceFields } from './listing-fields.tsx';

const IMMEDIATE_FIELDS: readonly ListingField[] = ['condition', 'features'];

/** The details a published listing can still change, saved with only what changed. */
export function EditListingDetails({ car, locked, onSaved, onRefused }: EditSectionProps) {
  const idBase = useId();
  const form = useListingForm({ idBase, initial: () => listingFormValues(car), fields: EDITABLE_FIELDS, immediate: IMMEDIATE_FIELDS });
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<SaveStatus | null>(null);

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
      <SaveActions status={status} statusTestId="save-status" saving={saving} locked={locked} label="Save Changes" />
    </form>
  );
}
