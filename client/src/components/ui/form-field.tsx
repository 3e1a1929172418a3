import type { ChangeEvent, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** The props that tie a control to its field's label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** What every field has around its control. */
export interface FieldChrome {
  /** The control's id (the label points at it; the hint and error ids derive from it). */
  id: string;
  label: ReactNode;
  /** Says "(optional)" after the label. */
  optional?: boolean;
  /** At the end of the label row: a character counter, a link. */
  aside?: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** `data-testid` of the error text. */
  errorTestId?: string;
  /** More ids that describe the control (help shown elsewhere). */
  describedBy?: string;
  /** Marks the control invalid without an error text here (the message is shown elsewhere). */
  invalid?: boolean;
  /** The error above the hint (a hint that stays below). */
  errorFirst?: boolean;
  /** More classes for the field. */
  className?: string;
}

export const hintId = (id: string) => `${id}-hint`;
export const errorId = (id: string) => `${id}-error`;

/** The control's `aria-invalid` and `aria-describedby` (hint and error, in the order shown). */
export function controlProps({ id, hint, error, describedBy, invalid, errorFirst }: FieldChrome): ControlProps {
  const hintPart = hint ? hintId(id) : '';
  const errorPart = error ? errorId(id) : '';
  const ids = [describedBy ?? '', ...(errorFirst ? [errorPart, hintPart] : [hintPart, errorPart])].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error || invalid ? true : undefined, 'aria-describedby': ids || undefined };
}

/**
 * A labelled form field: the label (with `aside` beside it), the control, a hint and the error
 * text, tied to the control by `aria-describedby`, with `aria-invalid` while there is an error.
 * `children` renders the control from the props it is given.
 */
export function FormField(props: FieldChrome & { children: (control: ControlProps) => ReactNode }) {
  const { id, label, optional, aside, hint, error, errorTestId, errorFirst, className, children } = props;
  const labelElement = (
    <label htmlFor={id} className="field__label">
      {label}
      {optional && (
        <>
          {' '}
          <span className="field__optional">(optional)</span>
        </>
      )}
    </label>
  );
  const hintText = hint && (
    <p id={hintId(id)} className="field__hint muted">
      {hint}
    </p>
  );
  const errorText = error && (
    <p id={errorId(id)} className="field__hint field__hint--error" data-testid={errorTestId}>
      {error}
    </p>
  );
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {aside === undefined ? (
        labelElement
      ) : (
        <div className="split-row field__label-row">
          {labelElement}
          {aside}
        </div>
      )}
      {children(controlProps(props))}
      {errorFirst ? errorText : hintText}
      {errorFirst ? hintText : errorText}
    </div>
  );
}

type Chrome = Omit<FieldChrome, 'id'> & { id: string };
type Native<T> = Omit<T, 'id' | 'value' | 'onChange' | 'children' | 'className'> & { value: string; onChange: (value: string) => void };

/** Splits a field's own props from the ones its control takes. */
function split<T extends Chrome>(props: T) {
  const { label, optional, aside, hint, error, errorTestId, describedBy, invalid, errorFirst, className, ...control } = props;
  return { chrome: { id: props.id, label, optional, aside, hint, error, errorTestId, describedBy, invalid, errorFirst, className }, control };
}

/** A text control's parts: its field's chrome, its own attributes, its class (`base` and any `inputClassName`) and its change handler. */
function textParts<T extends Chrome & { inputClassName?: string; onChange: (value: string) => void }>(props: T, base: string) {
  const { chrome, control } = split(props);
  const { onChange, inputClassName, ...input } = control;
  const className = inputClassName ? `${base} ${inputClassName}` : base;
  return { chrome, input, className, onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value) };
}

/** A text input (or email, tel, url...) in a field. */
export function TextField(props: Chrome & Native<InputHTMLAttributes<HTMLInputElement>> & { inputClassName?: string }) {
  const { chrome, input, className, onChange } = textParts(props, 'input');
  return <FormField {...chrome}>{(aria) => <input type="text" {...input} {...aria} className={className} onChange={onChange} />}</FormField>;
}

/** A multi-line text in a field. */
export function TextAreaField(props: Chrome & Native<TextareaHTMLAttributes<HTMLTextAreaElement>> & { inputClassName?: string }) {
  const { chrome, input, className, onChange } = textParts(props, 'input input--textarea');
  return <FormField {...chrome}>{(aria) => <textarea {...input} {...aria} className={className} onChange={onChange} />}</FormField>;
}

export interface SelectOption {
  value: string;
  label: string;
}

/** The `<option>`s of a `<select>`, for a select in a field or one standing alone. */
export function SelectOptions({ options }: { options: readonly SelectOption[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

/** A choice from a list in a field; `placeholder` is a first, empty option. */
export function SelectField(
  props: Chrome & Native<SelectHTMLAttributes<HTMLSelectElement>> & { options: readonly SelectOption[]; placeholder?: string },
) {
  const { chrome, control } = split(props);
  const { onChange, options, placeholder, ...select } = control;
  return (
    <FormField {...chrome}>
      {(aria) => (
        <select {...select} {...aria} className="input select" onChange={(event) => onChange(event.target.value)}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          <SelectOptions options={options} />
        </select>
      )}
    </FormField>
  );
}

/**
 * A character counter for a field's label row: "120/500". Red when `over`; hidden from screen
 * readers unless `spoken` (the limit is then also in the hint or the error).
 */
export function CharCounter({
  count,
  max,
  over = false,
  separator = '/',
  format = String,
  spoken = false,
  testId,
}: {
  count: number;
  max: number;
  over?: boolean;
  separator?: string;
  format?: (n: number) => string;
  spoken?: boolean;
  testId?: string;
}) {
  return (
    <span
      className={over ? 'field__counter field__counter--over' : 'field__counter'}
      aria-hidden={spoken ? undefined : true}
      data-testid={testId}
    >
      {format(count)}
      {separator}
      {format(max)}
    </span>
  );
}
