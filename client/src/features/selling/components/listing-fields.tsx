import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons.tsx';
import {
  auctionEndBounds,
  AUCTION_MIN_HOURS,
  BODY_STYLES,
  CONDITIONS,
  featureError,
  latestModelYear,
  LISTING_LIMITS,
  SALE_TYPES,
  textLength,
  type ListingErrors,
  type ListingField,
  type ListingFormValues,
} from '../lib/listing-form.ts';

const integer = new Intl.NumberFormat('en-US');

/** Ids of a field's input, hint and error, so labels and messages are tied to it. */
export function fieldIds(idBase: string, field: ListingField) {
  return { input: `${idBase}-field-${field}`, hint: `${idBase}-field-${field}-hint`, error: `${idBase}-field-${field}-error` };
}

interface FieldsProps {
  idBase: string;
  values: ListingFormValues;
  errors: ListingErrors;
  onChange: <F extends ListingField>(field: F, value: ListingFormValues[F]) => void;
  onBlur: (field: ListingField) => void;
  disabled?: boolean;
  /** A feature typed but not added yet (kept by the parent so it is not lost on submit). */
  featureDraft: string;
  onFeatureDraft: (text: string) => void;
}

function Field({
  idBase,
  field,
  label,
  hint,
  error,
  aside,
  children,
}: {
  idBase: string;
  field: ListingField;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const ids = fieldIds(idBase, field);
  return (
    <div className={`field sell-field sell-field--${field}`}>
      <div className="field__label-row">
        <label htmlFor={ids.input} className="field__label">
          {label}
        </label>
        {aside}
      </div>
      {children}
      {hint && (
        <p id={ids.hint} className="field__hint sell-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.error} className="field__hint field__hint--error" data-testid={`error-${field}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Props tying an input to its hint and error. */
function describe(idBase: string, field: ListingField, errors: ListingErrors, hasHint = false) {
  const ids = fieldIds(idBase, field);
  const describedBy = [hasHint ? ids.hint : '', errors[field] ? ids.error : ''].filter(Boolean).join(' ');
  return {
    id: ids.input,
    name: field,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

/** Make, model, year and body style: fixed once the car is listed. */
export function CarIdentityFields({ idBase, values, errors, onChange, onBlur, disabled }: Omit<FieldsProps, 'featureDraft' | 'onFeatureDraft'>) {
  const latest = latestModelYear();
  return (
    <div className="sell-grid">
      <Field idBase={idBase} field="make" label="Make" error={errors.make}>
        <input
          {...describe(idBase, 'make', errors)}
          className="input"
          type="text"
          autoComplete="off"
          maxLength={LISTING_LIMITS.make}
          placeholder="Porsche"
          value={values.make}
          disabled={disabled}
          onChange={(e) => onChange('make', e.target.value)}
          onBlur={() => onBlur('make')}
        />
      </Field>
      <Field idBase={idBase} field="model" label="Model" error={errors.model}>
        <input
          {...describe(idBase, 'model', errors)}
          className="input"
          type="text"
          autoComplete="off"
          maxLength={LISTING_LIMITS.model}
          placeholder="911 Carrera S"
          value={values.model}
          disabled={disabled}
          onChange={(e) => onChange('model', e.target.value)}
          onBlur={() => onBlur('model')}
        />
      </Field>
      <Field idBase={idBase} field="year" label="Model year" error={errors.year} hint={`${LISTING_LIMITS.firstYear} to ${latest}`}>
        <input
          {...describe(idBase, 'year', errors, true)}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          placeholder={String(latest - 3)}
          value={values.year}
          disabled={disabled}
          onChange={(e) => onChange('year', e.target.value)}
          onBlur={() => onBlur('year')}
        />
      </Field>
      <Field idBase={idBase} field="bodyStyle" label="Body style" error={errors.bodyStyle}>
        <select
          {...describe(idBase, 'bodyStyle', errors)}
          className="input select"
          value={values.bodyStyle}
          disabled={disabled}
          onChange={(e) => onChange('bodyStyle', e.target.value as ListingFormValues['bodyStyle'])}
          onBlur={() => onBlur('bodyStyle')}
        >
          <option value="">Choose a body style</option>
          {BODY_STYLES.map((style) => (
            <option key={style.value} value={style.value}>
              {style.label}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

/** This device's time zone, as people name it ("Central European Summer Time"), or ''. */
function timeZoneName(): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'long' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName');
    return part?.value ?? '';
  } catch {
    return '';
  }
}

/**
 * Price, mileage and condition. With `saleChoice` (a new listing) it starts with the choice of a
 * fixed price or a timed auction; an auction asks for its end and an optional reserve, and its
 * price is the starting bid.
 */
export function PriceFields({
  idBase,
  values,
  errors,
  onChange,
  onBlur,
  disabled,
  saleChoice = false,
}: Omit<FieldsProps, 'featureDraft' | 'onFeatureDraft'> & { saleChoice?: boolean }) {
  const conditionIds = fieldIds(idBase, 'condition');
  const saleIds = fieldIds(idBase, 'saleType');
  const auction = values.saleType === 'auction';
  const bounds = auctionEndBounds();
  const zone = timeZoneName();
  return (
    <div className="sell-grid">
      {saleChoice && (
        <fieldset className="field sell-field sell-field--sale-type sell-choice" role="radiogroup" aria-labelledby={`${saleIds.input}-legend`}>
          <legend id={`${saleIds.input}-legend`} className="field__label">
            How do you want to sell?
          </legend>
          <div className="sell-choice__options">
            {SALE_TYPES.map((type, i) => (
              <label key={type.value} className="sell-choice__option">
                <input
                  id={i === 0 ? saleIds.input : undefined}
                  type="radio"
                  name={`${idBase}-sale-type`}
                  value={type.value}
                  checked={values.saleType === type.value}
                  disabled={disabled}
                  onChange={() => onChange('saleType', type.value)}
                />
                <span>{type.label}</span>
              </label>
            ))}
          </div>
          <p className="field__hint sell-field__hint">
            {auction
              ? 'Buyers bid until the end you choose; the highest bid then buys the car through escrow. Bids in the final minutes extend the end, so nobody can snipe it.'
              : 'Buyers order at your asking price through escrow, or make you an offer by bidding.'}
          </p>
        </fieldset>
      )}
      <Field
        idBase={idBase}
        field="price"
        label={auction ? 'Starting bid' : 'Asking price'}
        error={errors.price}
        hint={auction ? 'Bidding opens here. Whole US dollars, up to $1,000,000' : 'Whole US dollars, up to $1,000,000'}
      >
        <div className="affix-input">
          <span className="affix-input__affix" aria-hidden="true">
            $
          </span>
          <input
            {...describe(idBase, 'price', errors, true)}
            className="input affix-input__input affix-input__input--prefix"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={12}
            placeholder="125000"
            value={values.price}
            disabled={disabled}
            onChange={(e) => onChange('price', e.target.value)}
            onBlur={() => onBlur('price')}
          />
        </div>
      </Field>
      {saleChoice && auction && (
        <>
          <Field
            idBase={idBase}
            field="auctionEnds"
            label="Auction ends"
            error={errors.auctionEnds}
            hint={`Your local time${zone ? ` (${zone})` : ''}: at least ${AUCTION_MIN_HOURS} hours and at most 30 days from now.`}
          >
            <input
              {...describe(idBase, 'auctionEnds', errors, true)}
              className="input"
              type="datetime-local"
              step={60}
              min={bounds.min}
              max={bounds.max}
              value={values.auctionEnds}
              disabled={disabled}
              onChange={(e) => onChange('auctionEnds', e.target.value)}
              onBlur={() => onBlur('auctionEnds')}
            />
          </Field>
          <Field
            idBase={idBase}
            field="reservePrice"
            label={
              <>
                Reserve price <span className="field__optional">(optional)</span>
              </>
            }
            error={errors.reservePrice}
            hint="Hidden from buyers. Below it the car does not sell, though you may still accept the highest bid for a day. Not below the starting bid."
          >
            <div className="affix-input">
              <span className="affix-input__affix" aria-hidden="true">
                $
              </span>
              <input
                {...describe(idBase, 'reservePrice', errors, true)}
                className="input affix-input__input affix-input__input--prefix"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                maxLength={12}
                placeholder="No reserve"
                value={values.reservePrice}
                disabled={disabled}
                onChange={(e) => onChange('reservePrice', e.target.value)}
                onBlur={() => onBlur('reservePrice')}
              />
            </div>
          </Field>
        </>
      )}
      <Field idBase={idBase} field="mileage" label="Mileage" error={errors.mileage}>
        <div className="affix-input">
          <input
            {...describe(idBase, 'mileage', errors)}
            className="input affix-input__input affix-input__input--suffix"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={12}
            placeholder="12400"
            value={values.mileage}
            disabled={disabled}
            onChange={(e) => onChange('mileage', e.target.value)}
            onBlur={() => onBlur('mileage')}
          />
          <span className="affix-input__affix affix-input__affix--suffix" aria-hidden="true">
            mi
          </span>
        </div>
      </Field>
      <fieldset
        className="field sell-field sell-field--condition sell-choice"
        role="radiogroup"
        aria-labelledby={`${conditionIds.input}-legend`}
        aria-describedby={errors.condition ? conditionIds.error : undefined}
        aria-invalid={errors.condition ? true : undefined}
      >
        <legend id={`${conditionIds.input}-legend`} className="field__label">
          Condition
        </legend>
        <div className="sell-choice__options">
          {CONDITIONS.map((condition, i) => (
            <label key={condition} className="sell-choice__option">
              <input
                id={i === 0 ? conditionIds.input : undefined}
                type="radio"
                name={`${idBase}-condition`}
                value={condition}
                checked={values.condition === condition}
                disabled={disabled}
                onChange={() => onChange('condition', condition)}
                onBlur={() => onBlur('condition')}
              />
              <span>{condition}</span>
            </label>
          ))}
        </div>
        {errors.condition && (
          <p id={conditionIds.error} className="field__hint field__hint--error" data-testid="error-condition">
            {errors.condition}
          </p>
        )}
      </fieldset>
    </div>
  );
}

/** Location, description and the features list. */
export function DescriptionFields({
  idBase,
  values,
  errors,
  onChange,
  onBlur,
  disabled,
  featureDraft,
  onFeatureDraft,
}: FieldsProps) {
  const featureIds = fieldIds(idBase, 'features');
  const featureInputId = featureIds.input;
  const featureHintId = useId();
  const featureErrorId = useId();
  const [featureProblem, setFeatureProblem] = useState<string | null>(null);
  const descriptionLength = textLength(values.description.trim());

  function addFeature() {
    const problem = featureError(featureDraft, values.features);
    if (problem) {
      setFeatureProblem(problem);
      return;
    }
    onChange('features', [...values.features, featureDraft.trim()]);
    onFeatureDraft('');
    setFeatureProblem(null);
  }

  function onFeatureKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the feature; it does not submit the form
    if (featureDraft.trim()) addFeature();
  }

  function removeFeature(index: number) {
    onChange(
      'features',
      values.features.filter((_, i) => i !== index),
    );
    document.getElementById(featureInputId)?.focus();
  }

  const featureDescribedBy = [featureHintId, featureProblem ? featureErrorId : '', errors.features ? featureIds.error : '']
    .filter(Boolean)
    .join(' ');

  return (
    <div className="sell-stack">
      <Field idBase={idBase} field="location" label="Location" error={errors.location} hint="City and state, shown on the listing">
        <input
          {...describe(idBase, 'location', errors, true)}
          className="input"
          type="text"
          autoComplete="address-level2"
          maxLength={LISTING_LIMITS.location}
          placeholder="Austin, TX"
          value={values.location}
          disabled={disabled}
          onChange={(e) => onChange('location', e.target.value)}
          onBlur={() => onBlur('location')}
        />
      </Field>
      <Field
        idBase={idBase}
        field="description"
        label="Description"
        error={errors.description}
        hint="History, service records, options, anything a buyer should know."
        aside={
          <span className={descriptionLength > LISTING_LIMITS.description ? 'field__counter field__counter--over' : 'field__counter'}>
            {integer.format(descriptionLength)} / {integer.format(LISTING_LIMITS.description)}
          </span>
        }
      >
        <textarea
          {...describe(idBase, 'description', errors, true)}
          className="input input--textarea sell-description"
          rows={6}
          maxLength={LISTING_LIMITS.description}
          value={values.description}
          disabled={disabled}
          onChange={(e) => onChange('description', e.target.value)}
          onBlur={() => onBlur('description')}
        />
      </Field>

      <div className="field sell-field sell-field--features">
        <div className="field__label-row">
          <label htmlFor={featureInputId} className="field__label">
            Features <span className="field__optional">(optional)</span>
          </label>
          <span className="field__counter">
            {values.features.length} / {LISTING_LIMITS.features}
          </span>
        </div>
        <div className="feature-entry">
          <input
            id={featureInputId}
            className="input"
            type="text"
            autoComplete="off"
            maxLength={LISTING_LIMITS.feature}
            placeholder="Sport Chrono package"
            value={featureDraft}
            disabled={disabled || values.features.length >= LISTING_LIMITS.features}
            aria-invalid={featureProblem || errors.features ? true : undefined}
            aria-describedby={featureDescribedBy}
            onChange={(e) => {
              onFeatureDraft(e.target.value);
              if (featureProblem) setFeatureProblem(null);
            }}
            onKeyDown={onFeatureKeyDown}
          />
          <button type="button" className="btn btn--outline" onClick={addFeature} disabled={disabled || !featureDraft.trim()}>
            <PlusIcon size={18} />
            Add
          </button>
        </div>
        <p id={featureHintId} className="field__hint sell-field__hint">
          Press Enter or Add after each feature, up to {LISTING_LIMITS.feature} characters.
        </p>
        {featureProblem && (
          <p id={featureErrorId} className="field__hint field__hint--error" data-testid="error-feature">
            {featureProblem}
          </p>
        )}
        {errors.features && (
          <p id={featureIds.error} className="field__hint field__hint--error" data-testid="error-features">
            {errors.features}
          </p>
        )}
        {values.features.length > 0 && (
          <ul className="feature-chips" aria-label="Features added">
            {values.features.map((feature, index) => (
              <li key={`${index}-${feature}`} className="feature-chip">
                <span>{feature}</span>
                <button
                  type="button"
                  className="feature-chip__remove"
                  aria-label={`Remove feature ${feature}`}
                  disabled={disabled}
                  onClick={() => removeFeature(index)}
                >
                  <CloseIcon size={14} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
