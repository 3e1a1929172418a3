import type { ReactNode } from 'react';
import './page-hero.css';

/** The dark brand band that opens the marketing and service pages (same palette as Listings). */
export function PageHero({
  eyebrow,
  title,
  titleId,
  lead,
  children,
  overlap = false,
}: {
  eyebrow: string;
  title: ReactNode;
  titleId: string;
  lead?: ReactNode;
  children?: ReactNode;
  /** Leave room at the bottom for content that overlaps the band (`.page-overlap`). */
  overlap?: boolean;
}) {
  return (
    <section className={overlap ? 'page-hero page-hero--overlap' : 'page-hero'} aria-labelledby={titleId}>
      <div className="container page-hero__inner">
        <p className="eyebrow">{eyebrow}</p>
        <h1 id={titleId} className="page-hero__title">
          {title}
        </h1>
        {lead && <p className="page-hero__lead">{lead}</p>}
        {children}
      </div>
    </section>
  );
}
