import { useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { PAGE_TITLES } from '@common/page-titles.ts';
import { FilterChips } from '../../../components/ui/filter-chips.tsx';
import { ShieldCheckIcon, StarIcon, ThumbsUpIcon, UserIcon } from '../../../components/ui/icons.tsx';
import { ErrorNotice } from '../../../components/ui/load-state.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getTestimonials, TESTIMONIALS_PATH, type Testimonial, type TestimonialsPage } from '../api/testimonials.ts';
import {
  filterTestimonials,
  testimonialStats,
  TESTIMONIAL_FILTERS,
  type TestimonialFilter,
} from '../lib/testimonials.ts';
import { ShareExperience } from './share-experience.tsx';
import { TestimonialCard } from './testimonial-card.tsx';
import './testimonials.css';

export const FETCH_TESTIMONIALS_FAILED = 'Failed to load testimonials';

const EMPTY_TEXT: Record<TestimonialFilter, string> = {
  all: 'No testimonials yet. Be the first to share your experience.',
  verified: 'No verified testimonials yet.',
  recent: 'No testimonials since August 2024.',
};

export function TestimonialsScreen() {
  useDocumentTitle(PAGE_TITLES.testimonials);
  const titleId = useId();
  const listTitleId = useId();
  const [filter, setFilter] = useState<TestimonialFilter>('all');
  const { resource, retry, mutate } = useResource<TestimonialsPage>(
    'testimonials',
    (signal) => getTestimonials(signal),
    FETCH_TESTIMONIALS_FAILED,
    TESTIMONIALS_PATH,
  );

  const onShared = useCallback(
    (created: Testimonial) => {
      setFilter('all');
      mutate((page) => {
        const testimonials = [created, ...page.testimonials.filter((t) => t.id !== created.id)];
        return { testimonials, stats: testimonialStats(testimonials) };
      });
    },
    [mutate],
  );

  const shown = useMemo(
    () => (resource.status === 'success' ? filterTestimonials(resource.data.testimonials, filter) : []),
    [resource, filter],
  );

  const stats = resource.status === 'success' ? resource.data.stats : null;

  return (
    <div className="testimonials-page">
      <PageHero
        eyebrow="Customer stories"
        title="Testimonials"
        titleId={titleId}
        lead="Real buyers on buying premium and luxury cars through LuxeMotors: the cars, the sellers and the escrow that protected their money."
        overlap
      >
        <a href="#share" className="btn btn--gold page-hero__cta">
          Share your experience
        </a>
      </PageHero>

      <div className="container page-overlap">
        <ul className="stat-grid stat-strip" aria-label="Testimonial statistics" aria-busy={!stats}>
          <StatTile icon={<UserIcon size={20} />} label="Reviews" value={stats ? stats.count.toLocaleString('en-US') : null} />
          <StatTile
            icon={<StarIcon size={20} />}
            label="Average rating"
            value={stats ? `${stats.averageRating.toFixed(1)} / 5` : null}
          />
          <StatTile
            icon={<ShieldCheckIcon size={20} />}
            label="Verified buyers"
            value={stats ? stats.verifiedCount.toLocaleString('en-US') : null}
          />
          <StatTile icon={<ThumbsUpIcon size={20} />} label="Satisfaction" value={stats ? `${stats.satisfaction}%` : null} />
        </ul>

        <section className="testimonials" aria-labelledby={listTitleId} aria-busy={resource.status === 'loading'}>
          <div className="split-row testimonials__toolbar">
            <h2 id={listTitleId} className="section-title">
              What our customers say
            </h2>
            <FilterChips label="Filter testimonials" options={TESTIMONIAL_FILTERS} value={filter} onChange={setFilter} />
          </div>

          {resource.status === 'loading' && <LoadingStatus label="Loading testimonials..." />}

          {resource.status === 'error' && <ErrorNotice message={resource.message} onRetry={retry} size="md" />}

          {resource.status === 'success' && (
            <>
              <p className="testimonials__count" role="status" data-testid="testimonial-count">
                {`Showing ${shown.length} of ${resource.data.testimonials.length} testimonials`}
              </p>
              {shown.length === 0 ? (
                <div className="empty-state">
                  <p className="empty-state__title">{EMPTY_TEXT[filter]}</p>
                </div>
              ) : (
                <ul className="tile-grid testimonial-grid">
                  {shown.map((t) => (
                    <li key={t.id}>
                      <TestimonialCard testimonial={t} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </section>

        <ShareExperience onShared={onShared} />
      </div>
    </div>
  );
}

function StatTile({ icon, label, value }: { icon: ReactNode; label: string; value: string | null }) {
  return (
    <li className="card stat-strip__tile" data-testid="testimonial-stat">
      <span className="icon-disc stat-strip__icon">{icon}</span>
      <span className="stat-value stat-strip__value">{value ?? (
          <>
            <span className="skeleton" aria-hidden="true" />
            <span className="sr-only">Loading</span>
          </>
        )}</span>
      <span className="stat-label stat-strip__label">{label}</span>
    </li>
  );
}
