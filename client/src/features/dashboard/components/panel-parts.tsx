import { useState, type HTMLAttributes, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { carPath } from '@common/paths.ts';
import { CarIcon } from '../../../components/ui/icons.tsx';
import { carName } from '../lib/dashboard-format.ts';
import type { Discussion } from '../api/dashboard.ts';

/** What a dashboard tab shows when it has nothing yet, and where to start (`link`, after the text). */
export function EmptyPanel({ icon, title, link, children }: { icon: ReactNode; title: string; link?: { to: string; label: string }; children: ReactNode }) {
  return (
    <div className="dash-empty">
      <span className="icon-disc dash-empty__icon">{icon}</span>
      <p className="dash-empty__title">{title}</p>
      <p className="dash-empty__text">
        {children}
        {link && (
          <>
            {' '}
            <Link to={link.to} className="text-link">
              {link.label}
            </Link>
          </>
        )}
      </p>
    </div>
  );
}

/** The car as orders, offers and discussions name it. */
type RowCar = Discussion['car'];

/**
 * A dashboard row about one car: its picture, its name linking to its page, then `children`
 * (what the row says of it) and `aside` (its status or action) at the end. Other props go to the `li`.
 */
export function CarRow({ car, aside, className, children, ...rest }: { car: RowCar; aside: ReactNode; children: ReactNode } & HTMLAttributes<HTMLLIElement>) {
  return (
    <li className={className ? `dash-row ${className}` : 'dash-row'} {...rest}>
      <Thumb src={car.primaryImage} />
      <div className="dash-row__main">
        <Link to={carPath(car.id)} className="dash-row__title dash-link">
          {carName(car)}
        </Link>
        {children}
      </div>
      {aside}
    </li>
  );
}

/** A car's small picture in a dashboard row; a car icon without one (or when it fails to load). */
export function Thumb({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  return src && !failed ? (
    <img className="dash-row__thumb" src={src} alt="" width={96} height={64} loading="lazy" onError={() => setFailed(true)} />
  ) : (
    <span className="dash-row__thumb dash-row__thumb--none" aria-hidden="true">
      <CarIcon size={22} />
    </span>
  );
}
