import { useId, useRef } from 'react';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons.tsx';
import type { DraftItem } from '../lib/dossier-form.ts';

/**
 * One of the dossier's plain lists (known flaws, modifications, items included): each entry a
 * line of text that can be moved up or down or removed, and a button that adds an empty line and
 * puts the cursor in it. Moves are announced, since the row under the pointer changes.
 */
export function DossierListField({
  idBase,
  list,
  title,
  singular,
  hint,
  placeholder,
  items,
  errors,
  listError,
  max,
  maxLength,
  disabled,
  onChange,
  onBlur,
  newKey,
}: {
  idBase: string;
  /** The body's name of the list (`knownFlaws`): ids, test ids and error keys follow it. */
  list: string;
  title: string;
  /** How one entry is called in labels: "Known flaw", "Modification". */
  singular: string;
  hint: string;
  placeholder: string;
  items: readonly DraftItem[];
  /** Messages by entry key. */
  errors: Readonly<Record<string, string | undefined>>;
  /** The problem of the list as a whole (too many entries). */
  listError?: string;
  max: number;
  maxLength: number;
  disabled?: boolean;
  onChange: (items: DraftItem[]) => void;
  onBlur?: (key: string) => void;
  newKey: () => string;
}) {
  const headingId = useId();
  const hintId = useId();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const inputId = (key: string) => `${idBase}-${list}-${key}`;

  function announce(text: string) {
    if (statusRef.current) statusRef.current.textContent = text;
  }

  function focusLater(key: string) {
    requestAnimationFrame(() => document.getElementById(inputId(key))?.focus());
  }

  function add() {
    const key = newKey();
    onChange([...items, { key, text: '' }]);
    focusLater(key);
  }

  function move(index: number, to: number) {
    const item = items[index];
    if (!item || to < 0 || to >= items.length) return;
    const next = items.filter((_, i) => i !== index);
    next.splice(to, 0, item);
    onChange(next);
    announce(`${singular} moved to position ${to + 1} of ${items.length}`);
  }

  function remove(index: number) {
    const next = items.filter((_, i) => i !== index);
    onChange(next);
    announce(`${singular} ${index + 1} removed`);
    const neighbour = next[Math.min(index, next.length - 1)];
    if (neighbour) focusLater(neighbour.key);
  }

  return (
    <section className="dossier-list" aria-labelledby={headingId} data-testid={`dossier-${list}`}>
      <div className="split-row field__label-row">
        <h4 id={headingId} className="dossier-list__title">
          {title} <span className="field__optional">(optional)</span>
        </h4>
        <span className="field__counter">
          {items.length} / {max}
        </span>
      </div>
      <p id={hintId} className="field__hint muted">
        {hint}
      </p>
      {items.length > 0 && (
        <ol className="dossier-list__items">
          {items.map((item, index) => {
            const id = inputId(item.key);
            const error = errors[item.key];
            const label = `${singular} ${index + 1}`;
            return (
              <li key={item.key} className="dossier-list__item" data-testid="dossier-item">
                <label htmlFor={id} className="sr-only">
                  {label}
                </label>
                <span className="dossier-list__position" aria-hidden="true">
                  {index + 1}.
                </span>
                <div className="dossier-list__text">
                  <textarea
                    id={id}
                    className="input input--textarea dossier-list__input"
                    rows={1}
                    maxLength={maxLength}
                    placeholder={placeholder}
                    value={item.text}
                    disabled={disabled}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : hintId}
                    onChange={(event) => onChange(items.map((it) => (it.key === item.key ? { ...it, text: event.target.value } : it)))}
                    onBlur={() => onBlur?.(item.key)}
                  />
                  {error && (
                    <p id={`${id}-error`} className="field__hint field__hint--error" data-testid={`error-${list}-${index}`}>
                      {error}
                    </p>
                  )}
                </div>
                <div className="dossier-list__actions">
                  <button
                    type="button"
                    className="icon-button dossier-list__action"
                    aria-label={`Move ${label.toLowerCase()} up`}
                    title="Move up"
                    disabled={disabled || index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    <ArrowUpIcon size={16} />
                  </button>
                  <button
                    type="button"
                    className="icon-button dossier-list__action"
                    aria-label={`Move ${label.toLowerCase()} down`}
                    title="Move down"
                    disabled={disabled || index === items.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    <ArrowDownIcon size={16} />
                  </button>
                  <button
                    type="button"
                    className="icon-button dossier-list__action dossier-list__action--remove"
                    aria-label={`Remove ${label.toLowerCase()}`}
                    title="Remove"
                    disabled={disabled}
                    onClick={() => remove(index)}
                  >
                    <TrashIcon size={16} />
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {listError && (
        <p className="field__hint field__hint--error" data-testid={`error-${list}`}>
          {listError}
        </p>
      )}
      <div>
        <button type="button" className="btn btn--outline btn--sm" onClick={add} disabled={disabled || items.length >= max}>
          <PlusIcon size={16} />
          Add {singular.toLowerCase()}
        </button>
      </div>
      <p ref={statusRef} className="sr-only" role="status" aria-live="polite" />
    </section>
  );
}
