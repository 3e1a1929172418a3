import { useId } from 'react';
import { formatUsd } from '@common/pricing.ts';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { CarIcon, MapPinIcon } from '../../../components/ui/icons.tsx';
import { VerifiedBadge } from '../../../components/ui/verified-badge.tsx';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import type { Testimonial } from '../api/testimonials.ts';
import { formatTestimonialDate } from '../lib/testimonials.ts';

export function TestimonialCard({ testimonial: t }: { testimonial: Testimonial }) {
  const nameId = useId();
  const date = formatTestimonialDate(t.date);
  return (
    <article
      className="card testimonial-card"
      id={`testimonial-${t.id}`}
      aria-labelledby={nameId}
      data-testid="testimonial-card"
      data-verified={t.verified}
      data-date={t.date}
      tabIndex={-1}
    >
      <header className="cluster testimonial-card__header">
        <Avatar name={t.customerName} src={t.customerImage} size={52} className="testimonial-card__avatar" lazy />
        <div className="testimonial-card__who">
          <h3 id={nameId} className="testimonial-card__name">
            {t.customerName}
          </h3>
          {t.location && (
            <p className="testimonial-card__location">
              <MapPinIcon size={14} />
              {t.location}
            </p>
          )}
        </div>
        {t.verified && (
          <VerifiedBadge testId="verified-badge" />
        )}
      </header>

      <div className="split-row testimonial-card__meta">
        <StarRating rating={t.rating} />
        {date && (
          <time className="testimonial-card__date" dateTime={t.date}>
            {date}
          </time>
        )}
      </div>

      <blockquote className="testimonial-card__comment">
        <p>{t.comment}</p>
      </blockquote>

      {(t.carPurchased || t.purchaseAmount !== null) && (
        <dl className="testimonial-card__purchase">
          {t.carPurchased && (
            <div>
              <dt>
                <CarIcon size={16} />
                <span>Purchased</span>
              </dt>
              <dd>{t.carPurchased}</dd>
            </div>
          )}
          {t.purchaseAmount !== null && (
            <div>
              <dt>
                <span>Price paid</span>
              </dt>
              <dd className="testimonial-card__amount">{formatUsd(t.purchaseAmount)}</dd>
            </div>
          )}
        </dl>
      )}
    </article>
  );
}
