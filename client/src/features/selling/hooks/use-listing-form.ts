import { useState } from 'react';
import { featureError, validateListing, type ListingErrors, type ListingField, type ListingFormValues } from '../lib/listing-form.ts';

/** Ids of a field's input, hint and error, so labels and messages are tied to it. */
export function fieldIds(idBase: string, field: ListingField) {
  return { input: `${idBase}-field-${field}`, hint: `${idBase}-field-${field}-hint`, error: `${idBase}-field-${field}-error` };
}

/**
 * The state of a listing form (`/sell` and `/sell/:id/edit`): the values as typed, which fields
 * show their problems, and the server's refusals by field.
 *
 * A field shows its problem once it has been left (`onBlur`) or the form was submitted; a choice
 * (`immediate`) as soon as it is made. The server's message for a field stands until the field
 * changes.
 */
export function useListingForm({
  idBase,
  initial,
  fields,
  immediate,
  blurOnlyWhenChanged = false,
  onValueChange,
}: {
  idBase: string;
  initial: () => ListingFormValues;
  /** The fields this form checks and sends, in form order. */
  fields: readonly ListingField[];
  /** Fields whose problems show as soon as they change. */
  immediate: readonly ListingField[];
  /** Leaving a field shows its problem only once it was changed (a blank form starts quiet). */
  blurOnlyWhenChanged?: boolean;
  /** Adjusts the values after a change (a choice that suggests another field's value). */
  onValueChange?: <F extends ListingField>(next: ListingFormValues, field: F, value: ListingFormValues[F], previous: ListingFormValues) => ListingFormValues;
}) {
  const [values, setValues] = useState<ListingFormValues>(initial);
  const [featureDraft, setFeatureDraft] = useState('');
  const [dirty, setDirty] = useState<ReadonlySet<ListingField>>(() => new Set());
  const [touched, setTouched] = useState<ReadonlySet<ListingField>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ListingErrors>({});

  const live = validateListing(values, fields);
  const errors: ListingErrors = {};
  for (const field of fields) {
    const message = serverErrors[field] ?? ((submitted || touched.has(field)) && live[field]);
    if (message) errors[field] = message;
  }

  const touch = (field: ListingField) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));

  function onChange<F extends ListingField>(field: F, value: ListingFormValues[F]) {
    setValues((previous) => {
      const next = { ...previous, [field]: value };
      return onValueChange ? onValueChange(next, field, value, previous) : next;
    });
    setDirty((d) => (d.has(field) ? d : new Set(d).add(field)));
    if (immediate.includes(field)) touch(field);
    setServerErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  }

  function onBlur(field: ListingField) {
    if (!blurOnlyWhenChanged || dirty.has(field)) touch(field);
  }

  /**
   * Submitting: a feature typed but not added yet is meant to be in the list. Returns the values
   * to send and whether they may be sent: this form's checks and (unless told not to) the
   * server's standing refusals. Focuses the first field with a problem.
   */
  function submit({ heedServerErrors = true } = {}): { values: ListingFormValues; valid: boolean } {
    let next = values;
    if (featureDraft.trim() && !featureError(featureDraft, values.features)) {
      next = { ...values, features: [...values.features, featureDraft.trim()] };
      setValues(next);
      setFeatureDraft('');
    }
    setSubmitted(true);
    const found = heedServerErrors ? { ...validateListing(next, fields), ...serverErrors } : validateListing(next, fields);
    const first = fields.find((f) => found[f]);
    if (first) document.getElementById(fieldIds(idBase, first).input)?.focus();
    return { values: next, valid: first === undefined };
  }

  /** The server refused some fields: show its messages beside them. */
  function refuse(fieldErrors: ListingErrors) {
    setServerErrors(fieldErrors);
    setSubmitted(true);
  }

  return {
    values,
    setValues,
    errors,
    onChange,
    onBlur,
    submit,
    refuse,
    featureDraft,
    setFeatureDraft,
  };
}

export type ListingForm = ReturnType<typeof useListingForm>;
