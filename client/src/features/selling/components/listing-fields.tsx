import { CharCounter, FormField, SelectField, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import { MoneyField } from '../../../components/ui/money-field.tsx';
import {
  auctionEndBounds,
  AUCTION_MIN_HOURS,
  BODY_STYLES,
  CONDITIONS,
  latestModelYear,
  LISTING_LIMITS,
  SALE_TYPES,
  textLength,
  type ListingErrors,
  type ListingField,
  type ListingFormValues,
} from '../lib/listing-form.ts';
import { fieldIds } from '../hooks/use-listing-form.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { FeaturesField } from './features-field.tsx';

const integer = new Intl.NumberFormat('en-US');

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

type BaseProps = Omit<FieldsProps, 'featureDraft' | 'onFeatureDraft'>;
type TextFieldName = { [F in ListingField]: ListingFormValues[F] extends string ? F : never }[ListingField];

/** What every text field of the form takes: its ids, name, value, error, and the form's handlers. */
function fieldProps({ idBase, values, errors, onChange, onBlur, disabled }: BaseProps, field: TextFieldName) {
  return {
    id: fieldIds(idBase, field).input,
    name: field,
    className: `sell-field sell-field--${field}`,
    error: errors[field],
    errorTestId: `error-${field}`,
    value: values[field],
    disabled,
    onChange: (value: string) => onChange(field, value as ListingFormValues[typeof field]),
    onBlur: () => onBlur(field),
  };
}

/** What every choice of the form takes: its ids, value, and the form's change handler. */
function choiceProps<F extends 'saleType' | 'condition'>({ idBase, values, onChange, disabled }: BaseProps, field: F) {
  return { idBase, field, value: values[field], disabled, onChange: (value: ListingFormValues[F]) => onChange(field, value) };
}

/** The part of a field's props that is about the field around the control. */
const chromeOf = ({ id, className, error, errorTestId }: ReturnType<typeof fieldProps>) => ({ id, className, error, errorTestId });

/** Make, model, year and body style: fixed once the car is listed. */
export function CarIdentityFields(props: BaseProps) {
  const latest = latestModelYear();
  return (
    <div className="sell-grid">
      <TextField {...fieldProps(props, 'make')} label="Make" autoComplete="off" maxLength={LISTING_LIMITS.make} placeholder="Porsche" />
      <TextField {...fieldProps(props, 'model')} label="Model" autoComplete="off" maxLength={LISTING_LIMITS.model} placeholder="911 Carrera S" />
      <TextField
        {...fieldProps(props, 'year')}
        label="Model year"
        hint={`${LISTING_LIMITS.firstYear} to ${latest}`}
        inputMode="numeric"
        autoComplete="off"
        maxLength={4}
        placeholder={String(latest - 3)}
      />
      <SelectField {...fieldProps(props, 'bodyStyle')} label="Body style" placeholder="Choose a body style" options={BODY_STYLES} />
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

const CONDITION_OPTIONS = CONDITIONS.map((condition) => ({ value: condition, label: condition }));

/**
 * Price, mileage and condition. With `saleChoice` (a new listing) it starts with the choice of a
 * fixed price or a timed auction; an auction asks for its end and an optional reserve, and its
 * price is the starting bid.
 */
export function PriceFields({ saleChoice = false, ...props }: BaseProps & { saleChoice?: boolean }) {
  const { values, errors, onChange, onBlur, disabled } = props;
  const auction = values.saleType === 'auction';
  const bounds = auctionEndBounds();
  const zone = timeZoneName();
  return (
    <div className="sell-grid">
      {saleChoice && (
        <ChoiceGroup
          {...choiceProps(props, 'saleType')}
          slug="sale-type"
          legend="How do you want to sell?"
          options={SALE_TYPES}
          hint={
            auction
              ? 'Buyers bid until the end you choose; the highest bid then buys the car through escrow. Bids in the final minutes extend the end, so nobody can snipe it.'
              : 'Buyers order at your asking price through escrow, or make you an offer by bidding.'
          }
        />
      )}
      <MoneyField
        {...fieldProps(props, 'price')}
        label={auction ? 'Starting bid' : 'Asking price'}
        hint={auction ? 'Bidding opens here. Whole US dollars, up to $1,000,000' : 'Whole US dollars, up to $1,000,000'}
        maxLength={12}
        placeholder="125000"
      />
      {saleChoice && auction && (
        <>
          <TextField
            {...fieldProps(props, 'auctionEnds')}
            label="Auction ends"
            hint={`Your local time${zone ? ` (${zone})` : ''}: at least ${AUCTION_MIN_HOURS} hours and at most 30 days from now.`}
            type="datetime-local"
            step={60}
            min={bounds.min}
            max={bounds.max}
          />
          <MoneyField
            {...fieldProps(props, 'reservePrice')}
            label={
              <>
                Reserve price <span className="field__optional">(optional)</span>
              </>
            }
            hint="Hidden from buyers. Below it the car does not sell, though you may still accept the highest bid for a day. Not below the starting bid."
            maxLength={12}
            placeholder="No reserve"
          />
        </>
      )}
      <FormField {...chromeOf(fieldProps(props, 'mileage'))} label="Mileage">
        {(aria) => (
          <div className="affix-input">
            <input
              {...aria}
              name="mileage"
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
            <span className="input-adornment input-adornment--end" aria-hidden="true">
              mi
            </span>
          </div>
        )}
      </FormField>
      <ChoiceGroup
        {...choiceProps(props, 'condition')}
        slug="condition"
        legend="Condition"
        options={CONDITION_OPTIONS}
        onBlur={() => onBlur('condition')}
        error={errors.condition}
      />
    </div>
  );
}

/** Location, description and the features list. */
export function DescriptionFields({ featureDraft, onFeatureDraft, ...props }: FieldsProps) {
  const { idBase, values, errors, onChange, disabled } = props;
  const descriptionLength = textLength(values.description.trim());
  return (
    <div className="sell-stack">
      <TextField
        {...fieldProps(props, 'location')}
        label="Location"
        hint="City and state, shown on the listing"
        autoComplete="address-level2"
        maxLength={LISTING_LIMITS.location}
        placeholder="Austin, TX"
      />
      <TextAreaField
        {...fieldProps(props, 'description')}
        label="Description"
        hint="History, service records, options, anything a buyer should know."
        aside={
          <CharCounter
            count={descriptionLength}
            max={LISTING_LIMITS.description}
            over={descriptionLength > LISTING_LIMITS.description}
            separator=" / "
            format={(n) => integer.format(n)}
            spoken
          />
        }
        inputClassName="sell-description"
        rows={6}
        maxLength={LISTING_LIMITS.description}
      />
      <FeaturesField
        inputId={fieldIds(idBase, 'features').input}
        features={values.features}
        error={errors.features}
        draft={featureDraft}
        onDraft={onFeatureDraft}
        onChange={(features) => onChange('features', features)}
        disabled={disabled}
      />
    </div>
  );
}
