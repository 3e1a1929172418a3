import type { ListingField } from '../lib/listing-form.ts';
import { fieldIds } from '../hooks/use-listing-form.ts';

/** A choice of a few options as large radio buttons (how to sell, the condition). */
export function ChoiceGroup<V extends string>({
  idBase,
  field,
  slug,
  legend,
  options,
  value,
  onChange,
  onBlur,
  hint,
  error,
  disabled,
}: {
  idBase: string;
  field: ListingField;
  /** The field's name in class names and the radios' name. */
  slug: string;
  legend: string;
  options: readonly { value: V; label: string }[];
  value: V | '';
  onChange: (value: V) => void;
  onBlur?: () => void;
  hint?: string;
  error?: string;
  disabled?: boolean;
}) {
  const ids = fieldIds(idBase, field);
  return (
    <fieldset
      className={`field sell-field sell-field--${slug} sell-choice`}
      role="radiogroup"
      aria-labelledby={`${ids.input}-legend`}
      aria-describedby={error ? ids.error : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend id={`${ids.input}-legend`} className="field__label">
        {legend}
      </legend>
      <div className="sell-choice__options">
        {options.map((option, i) => (
          <label key={option.value} className="sell-choice__option">
            <input
              id={i === 0 ? ids.input : undefined}
              type="radio"
              name={`${idBase}-${slug}`}
              value={option.value}
              checked={value === option.value}
              disabled={disabled}
              onChange={() => onChange(option.value)}
              onBlur={onBlur}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {hint && <p className="field__hint sell-field__hint">{hint}</p>}
      {error && (
        <p id={ids.error} className="field__hint field__hint--error" data-testid={`error-${field}`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
