import type { InputHTMLAttributes, ReactNode } from 'react';
import { FormField, type FieldChrome } from './form-field.tsx';
import './money-field.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'children' | 'className' | 'type'>;

/**
 * A field for a whole-dollar amount: the label, the amount typed after a "$" (a text input with
 * a numeric keyboard, so "125,000" can be typed as people write it), a hint and the error text
 * tied to it. `action` (a submit button) stands beside the input; `boxClassName` styles the box
 * around the input for a screen that shows the amount larger.
 */
export function MoneyField(
  props: FieldChrome &
    InputProps & {
      value: string;
      onChange: (value: string) => void;
      action?: ReactNode;
      boxClassName?: string;
    },
) {
  const { id, label, optional, aside, hint, error, errorTestId, describedBy, invalid, errorFirst, className, action, boxClassName, onChange, ...input } =
    props;
  const chrome = { id, label, optional, aside, hint, error, errorTestId, describedBy, invalid, errorFirst };
  return (
    <FormField {...chrome} className={className ? `money-field ${className}` : 'money-field'}>
      {(aria) => {
        const box = (
          <div className={boxClassName ? `money-field__box ${boxClassName}` : 'money-field__box'}>
            <span className="input-adornment money-field__prefix" aria-hidden="true">
              $
            </span>
            <input
              inputMode="numeric"
              autoComplete="off"
              {...input}
              {...aria}
              type="text"
              className="input money-field__input"
              onChange={(event) => onChange(event.target.value)}
            />
          </div>
        );
        return action ? (
          <div className="money-field__row">
            {box}
            {action}
          </div>
        ) : (
          box
        );
      }}
    </FormField>
  );
}
