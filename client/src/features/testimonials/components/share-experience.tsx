import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { CharCounter, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { useFormState } from '../../../lib/use-form-state.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { postTestimonial, type Testimonial } from '../api/testimonials.ts';
import {
  COMMENT_MAX,
  COMMENT_MIN,
  DETAIL_MAX,
  testimonialBody,
  validateTestimonial,
  type TestimonialField,
  type TestimonialFormValues,
} from '../lib/testimonials.ts';
import { RatingPicker } from './rating-picker.tsx';

const EMPTY: TestimonialFormValues = { rating: 0, comment: '', carPurchased: '', location: '' };
const FIELDS: readonly TestimonialField[] = ['rating', 'comment', 'carPurchased', 'location'];

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
  const form = useFormState<TestimonialFormValues>(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [shared, setShared] = useState<Testimonial | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  /** The rating has no single control of its own id: its first star takes focus. */
  function focusField(field: TestimonialField) {
    const target =
      field === 'rating'
        ? formRef.current?.querySelector<HTMLInputElement>('input[type="radio"]')
        : document.getElementById(form.idOf(field));
    target?.focus();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setFormError(null);
    if (!form.checked(validateTestimonial(form.values), FIELDS, focusField)) return;
    setSubmitting(true);
    try {
      const created = await postTestimonial(testimonialBody(form.values));
      form.setValues(EMPTY);
      setShared(created);
      onShared(created);
    } catch (err) {
      form.setErrors(err instanceof ApiError ? detailsByField(err.details, FIELDS).fields : {});
      setFormError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  const commentLength = [...form.values.comment.trim()].length;

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
        value={form.values.rating}
        onChange={(rating) => form.set('rating', rating)}
        error={form.errors.rating}
        errorId={`${form.idOf('rating')}-error`}
      />

      <TextAreaField
        {...form.field('comment')}
        label="Your experience"
        aside={<CharCounter count={commentLength} max={COMMENT_MAX} over={commentLength > COMMENT_MAX} testId="comment-counter" />}
        hint={`Between ${COMMENT_MIN} and ${COMMENT_MAX.toLocaleString('en-US')} characters.`}
        rows={5}
        maxLength={COMMENT_MAX + 200}
      />

      <div className="share__row">
        <TextField {...form.field('carPurchased')} label="Car purchased" optional placeholder="e.g. 2022 Porsche 911 GT3" maxLength={DETAIL_MAX} />
        <TextField
          {...form.field('location')}
          label="Location"
          optional
          placeholder="e.g. Austin, TX"
          autoComplete="address-level2"
          maxLength={DETAIL_MAX}
        />
      </div>

      <button type="submit" className="btn btn--primary btn--lg" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Submit Testimonial'}
      </button>
    </form>
  );
}
