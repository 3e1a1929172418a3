import { useId, useState, type KeyboardEvent } from 'react';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons.tsx';
import { featureError, LISTING_LIMITS } from '../lib/listing-form.ts';

/**
 * The listing's features: typed one at a time (Enter or Add), shown as chips that can be
 * removed. The feature being typed is kept by the form (`draft`), so submitting does not lose it.
 */
export function FeaturesField({
  inputId,
  features,
  error,
  draft,
  onDraft,
  onChange,
  disabled,
}: {
  inputId: string;
  features: string[];
  /** The form's problem with the list as a whole. */
  error?: string;
  draft: string;
  onDraft: (text: string) => void;
  onChange: (features: string[]) => void;
  disabled?: boolean;
}) {
  const hintId = useId();
  const problemId = useId();
  const errorId = `${inputId}-error`;
  const [problem, setProblem] = useState<string | null>(null);

  function addFeature() {
    const found = featureError(draft, features);
    if (found) {
      setProblem(found);
      return;
    }
    onChange([...features, draft.trim()]);
    onDraft('');
    setProblem(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the feature; it does not submit the form
    if (draft.trim()) addFeature();
  }

  function removeFeature(index: number) {
    onChange(features.filter((_, i) => i !== index));
    document.getElementById(inputId)?.focus();
  }

  const describedBy = [hintId, problem ? problemId : '', error ? errorId : ''].filter(Boolean).join(' ');

  return (
    <div className="field sell-field sell-field--features">
      <div className="split-row field__label-row">
        <label htmlFor={inputId} className="field__label">
          Features <span className="field__optional">(optional)</span>
        </label>
        <span className="field__counter">
          {features.length} / {LISTING_LIMITS.features}
        </span>
      </div>
      <div className="feature-entry">
        <input
          id={inputId}
          className="input"
          type="text"
          autoComplete="off"
          maxLength={LISTING_LIMITS.feature}
          placeholder="Sport Chrono package"
          value={draft}
          disabled={disabled || features.length >= LISTING_LIMITS.features}
          aria-invalid={problem || error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            onDraft(e.target.value);
            if (problem) setProblem(null);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn btn--outline" onClick={addFeature} disabled={disabled || !draft.trim()}>
          <PlusIcon size={18} />
          Add
        </button>
      </div>
      <p id={hintId} className="field__hint sell-field__hint">
        Press Enter or Add after each feature, up to {LISTING_LIMITS.feature} characters.
      </p>
      {problem && (
        <p id={problemId} className="field__hint field__hint--error" data-testid="error-feature">
          {problem}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__hint field__hint--error" data-testid="error-features">
          {error}
        </p>
      )}
      {features.length > 0 && (
        <ul className="feature-chips" aria-label="Features added">
          {features.map((feature, index) => (
            <li key={`${index}-${feature}`} className="feature-chip">
              <span>{feature}</span>
              <button
                type="button"
                className="icon-button feature-chip__remove"
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
  );
}
