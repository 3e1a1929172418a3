import { useState, type FormEvent } from 'react';
import { LISTING_LIMITS } from '@common/listing.ts';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { useSessionStore } from '../../../lib/session-store.ts';
import { FILTER_KEYS, hasFilters, type FilterCriteria, type FilterKey } from '../../market/index.ts';
import { BODY_STYLE_OPTIONS, FILTER_LABELS, filterValuesOf, readFilterValues, type FilterValues } from '../lib/filter-form.ts';
import type { ListingQuery } from '../lib/listing-query.ts';
import { SaveSearchButton } from './save-search-dialog.tsx';
import './filter-panel.css';

const NUMBER_FIELDS: readonly { key: FilterKey; placeholder: string }[] = [
  { key: 'minYear', placeholder: 'Any' },
  { key: 'maxYear', placeholder: 'Any' },
  { key: 'minPrice', placeholder: '$ Any' },
  { key: 'maxPrice', placeholder: '$ Any' },
];

/**
 * The listing's filter panel: make, model, body style, year and price ranges. What it applies
 * goes into the page URL (so Back, Forward, reload and shared links keep it); what is typed is
 * checked as it is typed, with the API's own rules. Re-mounted (by `key`) when the URL changes.
 */
export function FilterPanel({
  query,
  onApply,
  onClear,
}: {
  query: ListingQuery;
  onApply: (criteria: FilterCriteria) => void;
  onClear: () => void;
}) {
  const [values, setValues] = useState<FilterValues>(() => filterValuesOf(query));
  const [touched, setTouched] = useState<ReadonlySet<FilterKey>>(new Set());
  const [tried, setTried] = useState(false);
  // A phone shows the fields only when asked (they would fill its screen above the cars).
  const [open, setOpen] = useState(false);
  const signedIn = useSessionStore((s) => s.isAuthenticated && s.user !== null);
  const { criteria, errors } = readFilterValues(values);
  const invalid = Object.keys(errors).length > 0;
  const applied = hasFilters(query);
  const appliedCount = FILTER_KEYS.filter((key) => query[key] !== undefined).length;

  const set = (key: FilterKey) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setTouched((current) => new Set(current).add(key));
  };
  const errorOf = (key: FilterKey) => (tried || touched.has(key) ? errors[key] : undefined);

  function clear() {
    setValues(filterValuesOf({}));
    setTouched(new Set());
    setTried(false);
    onClear();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!invalid) onApply(criteria);
  }

  return (
    // The actions sit outside the form (Apply names it) so the save dialog's own form is not nested in it.
    <section className="card filter-panel" aria-labelledby="filter-panel-title" data-testid="filter-panel">
      <h3 id="filter-panel-title" className="caps-label filter-panel__title">
        Filters
      </h3>
      <button type="button" className="btn btn--outline filter-panel__toggle" aria-expanded={open} aria-controls="filter-panel-body" onClick={() => setOpen((was) => !was)}>
        {appliedCount > 0 ? `Filters (${appliedCount})` : 'Filters'}
      </button>
      <div id="filter-panel-body" className={open ? 'filter-panel__body filter-panel__body--open' : 'filter-panel__body'}>
        <form id="filter-panel-form" className="filter-panel__fields" onSubmit={submit} noValidate aria-labelledby="filter-panel-title">
          <TextField id="filter-make" label={FILTER_LABELS.make} value={values.make} onChange={set('make')} error={errorOf('make')} placeholder="Any make" maxLength={LISTING_LIMITS.make + 1} autoComplete="off" className="filter-panel__field--name" />
          <TextField id="filter-model" label={FILTER_LABELS.model} value={values.model} onChange={set('model')} error={errorOf('model')} placeholder="Any model" maxLength={LISTING_LIMITS.model + 1} autoComplete="off" className="filter-panel__field--name" />
          <SelectField id="filter-body" label={FILTER_LABELS.bodyStyle} value={values.bodyStyle} onChange={set('bodyStyle')} error={errorOf('bodyStyle')} options={BODY_STYLE_OPTIONS} placeholder="Any body style" className="filter-panel__field--body" />
          {NUMBER_FIELDS.map(({ key, placeholder }) => (
            <TextField
              key={key}
              id={`filter-${key}`}
              label={FILTER_LABELS[key]}
              value={values[key]}
              onChange={set(key)}
              error={errorOf(key)}
              placeholder={placeholder}
              inputMode="numeric"
              autoComplete="off"
              className="filter-panel__field--range"
            />
          ))}
        </form>
        <div className="cluster filter-panel__actions">
          <button type="submit" form="filter-panel-form" className="btn btn--dark" aria-describedby={tried && invalid ? 'filter-panel-problem' : undefined}>
            Apply filters
          </button>
          {(applied || Object.values(values).some((v) => v.trim())) && (
            <button type="button" className="btn btn--outline" onClick={clear}>
              Clear filters
            </button>
          )}
          {signedIn && <SaveSearchButton query={query} />}
        </div>
        {tried && invalid && (
          <p id="filter-panel-problem" className="field__hint field__hint--error" role="alert">
            Fix the highlighted filters to apply them.
          </p>
        )}
      </div>
    </section>
  );
}
