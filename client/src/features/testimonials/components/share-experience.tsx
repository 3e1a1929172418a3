import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { postTestimonial, type Testimonial } from '../api/testimonials.ts';
import {
  COMMENT_MAX,
  COMMENT_MIN,
  DETAIL_MAX,
  testimonialBody,
  validateTestimonial,
  type TestimonialErrors,
  type TestimonialField,
  type TestimonialFormValues,
} from '../lib/testimonials.ts';
import { RatingPicker } from './rating-picker.tsx';

const EMPTY: TestimonialFormValues = { rating: 0, comment: '', carPurchased: '', location: '' };
const FIELDS: readonly TestimonialField[] = ['rating', 'comment', 'carPurchased', 'location'];

/** Maps a 400's `details` (`[{field, message}]`) onto the form's fields. */
function fieldErrors(details: unknown): TestimonialErrors {
  const errors: TestimonialErrors = {};
  if (!Array.isArray(details)) return errors;
  for (const item of details) {
    const { field, message } = (item ?? {}) as { field?: unknown; message?: unknown };
    const key = typeof field === 'string' ? field.split('.')[0] : '';
    if (typeof message === 'string' && FIELDS.includes(key as TestimonialField)) errors[key as TestimonialField] ??= message;
  }
  return errors;
}

/** "Share your experience": a form for signed-in, verified users; a way there for everyone else. */
export function ShareExperience({ onShared }: { onShared: (testimonial: Testimonial) => void }) {
  const titleId = useId();
  const location = useLocation();
  const user = useSessionStore((s) => (s.isAuthenticated ? s.user : null));

  let body;
  if (!user) {
    const from = `${location.pathname}${location.search}`;
    body = (
      <div className="share__gate">
        <p>Bought a car through LuxeMotors? Sign in to tell other buyers how it went.</p>
        <Link to="/login" state={{ from }} className="btn btn--primary">
          Sign in to share your experience
        </Link>
        <p className="muted">
          New here?{' '}
          <Link to="/register" className="text-link">
            Create an account
          </Link>
        </p>
      </div>
    );
  } else if (!user.email_verified) {
    body = (
      <Alert tone="info" title="Verify your email to share your experience">
        <p>
          We sent a verification link to <strong>{user.email}</strong>. You can send a new one from{' '}
          <Link to="/dashboard" className="text-link">
            your dashboard
          </Link>
          .
        </p>
      </Alert>
    );
  } else {
    body = <ShareForm onShared={onShared} />;
  }

  return (
    <section className="share" id="share" aria-labelledby={titleId}>
      <div className="share__intro">
        <p className="eyebrow eyebrow--dark">Your voice matters</p>
        <h2 id={titleId} className="section-title">
          Share your experience
        </h2>
        <p className="muted">
          Tell future buyers about the car, the seller and the escrow process. Reviews from customers
          with a completed escrow purchase are marked Verified.
        </p>
      </div>
      <div className="share__body">{body}</div>
    </section>
  );
}

function ShareForm({ onShared }: { onShared: (testimonial: Testimonial) => void }) {
  const idBase = useId();
  const id = (field: TestimonialField) => `${idBase}-${field}`;
  const errorId = (field: TestimonialField) => `${idBase}-${field}-error`;
  const [values, setValues] = useState<TestimonialFormValues>(EMPTY);
  const [errors, setErrors] = useState<TestimonialErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [shared, setShared] = useState<Testimonial | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends TestimonialField>(field: K, value: TestimonialFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  function focusField(field: TestimonialField) {
    const target =
      field === 'rating'
        ? formRef.current?.querySelector<HTMLInputElement>('input[type="radio"]')
        : document.getElementById(id(field));
    target?.focus();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found = validateTestimonial(values);
    setErrors(found);
    setFormError(null);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      focusField(first);
      return;
    }
    setSubmitting(true);
    try {
      const created = await postTestimonial(testimonialBody(values));
      setValues(EMPTY);
      setShared(created);
      onShared(created);
    } catch (err) {
      const fromServer = err instanceof ApiError ? fieldErrors(err.details) : {};
      setErrors(fromServer);
      setFormError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  const commentLength = [...values.comment.trim()].length;

  return (
    <form ref={formRef} className="share__form" onSubmit={handleSubmit} noValidate aria-label="Share your experience">
      {shared && (
        <Alert tone="success" title="Thank you for sharing your experience!" testId="share-success">
          <p>
            Your testimonial is now at the top of the list.{' '}
            <a href={`#testimonial-${shared.id}`} className="text-link">
              See it
            </a>
          </p>
        </Alert>
      )}
      {formError && <Alert tone="error">{formError}</Alert>}

      <RatingPicker
        value={values.rating}
        onChange={(rating) => set('rating', rating)}
        error={errors.rating}
        errorId={errorId('rating')}
      />

      <div className="field">
        <div className="field__label-row">
          <label htmlFor={id('comment')} className="field__label">
            Your experience
          </label>
          <span
            className={commentLength > COMMENT_MAX ? 'field__counter field__counter--over' : 'field__counter'}
            aria-hidden="true"
            data-testid="comment-counter"
          >
            {commentLength}/{COMMENT_MAX}
          </span>
        </div>
        <textarea
          id={id('comment')}
          className="input input--textarea"
          rows={5}
          value={values.comment}
          maxLength={COMMENT_MAX + 200}
          aria-invalid={errors.comment ? true : undefined}
          aria-describedby={`${id('comment')}-help${errors.comment ? ` ${errorId('comment')}` : ''}`}
          onChange={(e) => set('comment', e.target.value)}
        />
        <p id={`${id('comment')}-help`} className="field__hint muted">
          {`Between ${COMMENT_MIN} and ${COMMENT_MAX.toLocaleString('en-US')} characters.`}
        </p>
        {errors.comment && (
          <p id={errorId('comment')} className="field__hint field__hint--error">
            {errors.comment}
          </p>
        )}
      </div>

      <div className="share__row">
        <div className="field">
          <label htmlFor={id('carPurchased')} className="field__label">
            Car purchased <span className="field__optional">(optional)</span>
          </label>
          <input
            id={id('carPurchased')}
            className="input"
            type="text"
            placeholder="e.g. 2022 Porsche 911 GT3"
            maxLength={DETAIL_MAX}
            value={values.carPurchased}
            aria-invalid={errors.carPurchased ? true : undefined}
            aria-describedby={errors.carPurchased ? errorId('carPurchased') : undefined}
            onChange={(e) => set('carPurchased', e.target.value)}
          />
          {errors.carPurchased && (
            <p id={errorId('carPurchased')} className="field__hint field__hint--error">
              {errors.carPurchased}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={id('location')} className="field__label">
            Location <span className="field__optional">(optional)</span>
          </label>
          <input
            id={id('location')}
            className="input"
            type="text"
            placeholder="e.g. Austin, TX"
            autoComplete="address-level2"
            maxLength={DETAIL_MAX}
            value={values.location}
            aria-invalid={errors.location ? true : undefined}
            aria-describedby={errors.location ? errorId('location') : undefined}
            onChange={(e) => set('location', e.target.value)}
          />
          {errors.location && (
            <p id={errorId('location')} className="field__hint field__hint--error">
              {errors.location}
            </p>
          )}
        </div>
      </div>

      <button type="submit" className="btn btn--primary btn--lg" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Submit Testimonial'}
      </button>
    </form>
  );
}
