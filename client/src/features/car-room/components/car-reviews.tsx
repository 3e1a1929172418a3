import { useId } from 'react';
import { VerifiedBadge } from '../../../components/ui/verified-badge.tsx';
import { formatDate } from '../../../lib/relative-time.ts';
import type { Review } from '../api/car-room-api.ts';
import { countLabel } from '../../../lib/quantities.ts';
import { formatRating } from '../lib/format.ts';
import { Stars } from './stars.tsx';

export function CarReviews({ reviews }: { reviews: Review[] }) {
  const titleId = useId();
  const average = reviews.length > 0 ? reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length : null;
  return (
    <section className="room-card" aria-labelledby={titleId}>
      <div className="split-row room-card__heading">
        <h2 id={titleId} className="room-card__title">
          Customer Reviews
        </h2>
        {average !== null && (
          <p className="reviews__summary">
            <Stars rating={Number(formatRating(average))} />
            <span>
              {formatRating(average)} · {countLabel(reviews.length, 'review')}
            </span>
          </p>
        )}
      </div>
      {reviews.length === 0 ? (
        <p className="muted">No reviews yet for this vehicle.</p>
      ) : (
        <ul className="reviews">
          {reviews.map((review) => (
            <li key={review.id} className="review" data-testid="review">
              <div className="review__head">
                <p className="review__author">{review.userName}</p>
                {review.verified && (
                  <VerifiedBadge soft />
                )}
              </div>
              <div className="review__rating">
                <Stars rating={review.rating} />
                <time className="review__date" dateTime={review.date}>
                  {formatDate(review.date)}
                </time>
              </div>
              <p className="review__comment">{review.comment}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
