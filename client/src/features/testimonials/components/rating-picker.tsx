import { useId, useState } from 'react';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { RATING_WORDS } from '../lib/testimonials.ts';

/**
 * A 1-5 star rating as a group of native radio buttons (so Tab reaches it and the arrow keys
 * change it), drawn as stars. Hovering previews a rating.
 */
export function RatingPicker({
  value,
  onChange,
  error,
  errorId,
}: {
  value: number;
  onChange: (rating: number) => void;
  error?: string;
  errorId: string;
}) {
  const name = useId();
  const [hovered, setHovered] = useState(0);
  const shown = hovered || value;
  return (
    <fieldset
      className="rating-picker"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="field__label">Your rating</legend>
      <div className="cluster rating-picker__row">
        <div className="rating-picker__stars" onMouseLeave={() => setHovered(0)}>
          {[1, 2, 3, 4, 5].map((n) => {
            const id = `${name}-${n}`;
            return (
              <span key={n} className="rating-picker__option" onMouseEnter={() => setHovered(n)}>
                <input
                  id={id}
                  className="rating-picker__input"
                  type="radio"
                  name={name}
                  value={n}
                  checked={value === n}
                  onChange={() => onChange(n)}
                />
                <label
                  htmlFor={id}
                  className={n <= shown ? 'rating-picker__star is-on' : 'rating-picker__star'}
                >
                  <StarIcon size={30} fill={n <= shown ? 'currentColor' : 'none'} />
                  <span className="sr-only">{n === 1 ? '1 star' : `${n} stars`}</span>
                </label>
              </span>
            );
          })}
        </div>
        <span className="rating-picker__word" aria-hidden="true">
          {shown ? RATING_WORDS[shown] : 'Choose a rating'}
        </span>
      </div>
      {error && (
        <p id={errorId} className="field__hint field__hint--error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
