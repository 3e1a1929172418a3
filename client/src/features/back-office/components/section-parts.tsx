import { useEffect, useRef, type FormEvent, type ReactNode, type Ref } from 'react';
import { SHARED_ADDRESS_WINDOW_DAYS } from '@common/back-office.ts';
import type { AdminSection } from '@common/paths.ts';
import { RefreshIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import type { SessionUser } from '../../../lib/session-store.ts';
import type { Resource } from '../../../lib/use-resource.ts';
import './console.css';

/** What the console gives each of its sections. */
export interface SectionProps {
  user: SessionUser;
  /** The section's heading id (the panel is labelled by it). */
  titleId: string;
}

/** Each section's heading (the console's menu names it so too) and what it is for. */
export const SECTION_HEADS: Record<AdminSection, { title: string; lead: string }> = {
  overview: { title: 'Overview', lead: 'What needs attention now, and the money in escrow.' },
  disputes: {
    title: 'Disputes',
    lead: "Buyers who found a problem at inspection. Read both sides, then release the funds to the seller or refund the buyer; the reason goes on the order's timeline and in the audit log.",
  },
  ledger: {
    title: 'Ledger',
    lead: 'Every charge into escrow, payout to a seller and refund to a buyer. What was charged is always paid out, refunded or still held.',
  },
  users: { title: 'Users', lead: 'Find an account by name or email. Every change is kept in the audit log with your reason.' },
  listings: {
    title: 'Listings',
    lead: 'Find a listing by its number (the one in its address, /car/12) to hide it from the marketplace, or to put a hidden one back.',
  },
  moderation: {
    title: 'Moderation',
    lead: 'Discussion messages held for contact or payment details, or by readers’ reports, and reported ones still shown, oldest first. Approve, remove or mute the author; each move is kept in the audit log with your reason.',
  },
  tickets: {
    title: 'Tickets',
    lead: 'Requests sent from the Support page. Your reply is emailed to the person who asked and the ticket is marked answered.',
  },
  'flagged-bids': {
    title: 'Flagged Bids',
    lead: `Bids placed by an account that signed in from the same address as the car’s seller within ${SHARED_ADDRESS_WINDOW_DAYS} days. They were accepted; look into the accounts and suspend one if it is shill bidding.`,
  },
  audit: {
    title: 'Audit Log',
    lead: "Every move made in this console or with the operator command line, newest first. Entries cannot be changed, and each one's hash chains it to the one before.",
  },
};

/**
 * A console section: its heading (the panel is labelled by it) and what it is for, with
 * `onRefresh` a Refresh button that reads it again, then its content.
 */
export function ConsoleSection({ section, titleId, onRefresh, children }: { section: AdminSection; titleId: string; onRefresh?: () => void; children: ReactNode }) {
  const { title, lead } = SECTION_HEADS[section];
  return (
    <div className="console-section">
      <div className="split-row console-section__top">
        <div className="console-section__head">
          <h2 id={titleId} className="console-section__title">
            {title}
          </h2>
          <p className="console-section__lead">{lead}</p>
        </div>
        {onRefresh && (
          <button type="button" className="btn btn--outline btn--sm" onClick={onRefresh}>
            <RefreshIcon size={16} />
            Refresh
          </button>
        )}
      </div>
      {children}
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

/** A row of toggle chips choosing what a section lists; choosing one also clears the last move's status. */
export function FilterChips<F extends string>({ label, options, value, onChange }: { label: string; options: readonly { value: F; label: string }[]; value: F; onChange: (value: F) => void }) {
  return (
    <div className="cluster" role="group" aria-label={label}>
      {options.map((option) => (
        <button key={option.value} type="button" className="chip" aria-pressed={value === option.value} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}

/**
 * For a move that takes its own controls away (the item leaves the list with its buttons): once
 * its dialog has gone, focus goes to the status saying what was done, not to the page. Give
 * `status` to the section's ConsoleStatus and call `focusStatusAfterClose` when the move succeeds.
 */
export function useStatusFocusAfterMove(dialogOpen: boolean) {
  const status = useRef<HTMLParagraphElement>(null);
  const pending = useRef(false);
  useEffect(() => {
    if (dialogOpen || !pending.current) return;
    pending.current = false;
    status.current?.focus();
  }, [dialogOpen]);
  return {
    status,
    focusStatusAfterClose: () => {
      pending.current = true;
    },
  };
}

/**
 * What the last move did ("Order #12: $98,000 refunded to the buyer."), announced politely; hidden
 * while empty. Focus can be put on it (`ref`) when the move took away the control that made it.
 */
export function ConsoleStatus({ children, testId, ref }: { children: ReactNode; testId?: string; ref?: Ref<HTMLParagraphElement> }) {
  return (
    <p ref={ref} className="console-status" role="status" data-testid={testId} tabIndex={-1}>
      {children}
    </p>
  );
}

/**
 * A section's list as it loads: the spinner, the error with Retry, `empty` (a title and a line)
 * when there is nothing in it, else `children(items)`.
 */
export function LoadedList<T>({
  resource,
  retry,
  label,
  empty,
  children,
}: {
  resource: Resource<T[]>;
  retry: () => void;
  label: string;
  empty: { title: string; text?: ReactNode };
  children: (items: T[]) => ReactNode;
}) {
  return (
    <Loaded resource={resource} retry={retry} label={label}>
      {(items) => (items.length === 0 ? <ConsoleEmpty title={empty.title}>{empty.text}</ConsoleEmpty> : children(items))}
    </Loaded>
  );
}

/**
 * The filters (or the search) over a section's list: fields side by side that wrap, and their
 * buttons. Sending it calls `onApply`; the fields are checked by the section, not the browser.
 */
export function FilterForm({ label, onApply, search = false, className, children }: { label: string; onApply: () => void; search?: boolean; className?: string; children: ReactNode }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply();
  }
  return (
    <form className={className ? `console-filters ${className}` : 'console-filters'} role={search ? 'search' : undefined} onSubmit={submit} noValidate aria-label={label}>
      {children}
    </form>
  );
}

/** A small button that opens a move's dialog: "Suspend", "Refund Buyer". */
export function MoveButton({ label, tone = 'outline', onClick }: { label: string; tone?: 'outline' | 'dark' | 'primary' | 'danger'; onClick: () => void }) {
  return (
    <button type="button" className={`btn btn--${tone} btn--sm`} onClick={onClick}>
      {label}
    </button>
  );
}
