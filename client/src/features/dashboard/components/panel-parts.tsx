import { useState, type ReactNode } from 'react';
import { CarIcon } from '../../../components/ui/icons.tsx';

/** What a dashboard tab shows when it has nothing yet, and where to start. */
export function EmptyPanel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="dash-empty">
      <span className="icon-disc dash-empty__icon">{icon}</span>
      <p className="dash-empty__title">{title}</p>
      <p className="dash-empty__text">{children}</p>
    </div>
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
