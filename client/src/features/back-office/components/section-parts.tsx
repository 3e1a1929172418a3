import type { ReactNode } from 'react';
import type { SessionUser } from '../../../lib/session-store.ts';

/** What the console gives each of its sections. */
export interface SectionProps {
  user: SessionUser;
  /** The section's heading id (the panel is labelled by it). */
  titleId: string;
}

/** A console section's heading (the panel is labelled by it), what it is for, and its actions. */
export function SectionHead({ titleId, title, lead, aside }: { titleId: string; title: string; lead?: ReactNode; aside?: ReactNode }) {
  return (
    <div className="split-row console-section__top">
      <div className="console-section__head">
        <h2 id={titleId} className="console-section__title">
          {title}
        </h2>
        {lead && <p className="console-section__lead">{lead}</p>}
      </div>
      {aside}
    </div>
  );
}

/** What a section shows when its list is empty. */
export function ConsoleEmpty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="console-empty" role="status">
      <strong>{title}</strong>
      {children}
    </div>
  );
}
