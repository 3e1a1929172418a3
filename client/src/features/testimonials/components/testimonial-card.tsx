import { useId, useState } from 'react';
import { formatUsd } from '@common/pricing.ts';
import { CarIcon, MapPinIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { initials } from '../../../lib/initials.ts';
import type { Testimonial } from '../api/testimonials.ts';
import { formatTestimonialDate } from '../lib/testimonials.ts';

function CustomerAvatar({ name, image }: { name: string; image: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (image && failed !== image) {
    return (
      <img
        className="testimonial-card__avatar"
        src={image}
        alt=""
        width={52}
        height={52}
        loading="lazy"
        referrerPolicy="no-referrer"
        onError={() => setFailed(image)}
      />
    );
  }
  return (
    <span className="testimonial-card__avatar testimonial-card__avatar--initials" aria-hidden="true">
      {initials(name)}
    </span>
  );
}

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
      <header className="testimonial-card__header">
        <CustomerAvatar name={t.customerName} image={t.customerImage} />
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
          <span className="badge badge--verified" data-testid="verified-badge">
            <ShieldCheckIcon size={14} />
            Verified
          </span>
        )}
      </header>

      <div className="testimonial-card__meta">
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
