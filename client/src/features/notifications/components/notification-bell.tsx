import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BellIcon, GavelIcon, InfoIcon, MessageIcon } from '../../../components/ui/icons.tsx';
import { formatDateTime, formatRelativeTime } from '../../../lib/relative-time.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { AppNotification } from '../api/notifications-api.ts';
import { notificationLink } from '../lib/notification-link.ts';
import { loadNotifications, markEveryRead, markOneRead, startNotificationSync } from '../lib/notification-sync.ts';
import { useNotificationStore } from '../stores/notification-store.ts';
import './notifications.css';

const TYPE_ICONS = { bid: GavelIcon, message: MessageIcon, system: InfoIcon } as const;

/** "Notifications, 3 unread" — the bell's accessible name carries the count. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/**
 * The navigation bar's bell (spec §2): a live unread badge and a popover listing the signed-in
 * user's notifications. Escape, a click outside, leaving it with Tab, or navigating closes it.
 */
export function NotificationBell() {
  const location = useLocation();
  const userId = useSessionStore((s) => (s.isAuthenticated && s.user ? s.user.id : null));
  const unread = useNotificationStore((s) => s.unreadCount);
  const shownUnread = userId === null ? 0 : unread;

  // Like the menu: remembers where it was opened, so any navigation closes it without an effect.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const open = openedAt === location.key;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();

  useEffect(() => {
    if (userId !== null) startNotificationSync();
  }, [userId]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenedAt(null);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpenedAt(null);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    const next = event.relatedTarget as Node | null;
    if (open && next && !wrapperRef.current?.contains(next)) setOpenedAt(null);
  }

  return (
    <div className="bell" ref={wrapperRef} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-btn"
        aria-label={bellLabel(shownUnread)}
        title="Notifications"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpenedAt(open ? null : location.key)}
      >
        <BellIcon />
        {shownUnread > 0 && (
          <span className="count-pill icon-btn__badge" data-testid="unread-badge" aria-hidden="true">
            {shownUnread > 99 ? '99+' : shownUnread}
          </span>
        )}
      </button>

      {open && (
        <div
          ref={panelRef}
          id={panelId}
          className="bell-panel accent-bar"
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          data-testid="notifications-panel"
        >
          {userId === null ? (
            <SignedOutPanel titleId={titleId} from={`${location.pathname}${location.search}`} />
          ) : (
            <SignedInPanel titleId={titleId} onNavigate={() => setOpenedAt(null)} />
          )}
        </div>
      )}
    </div>
  );
}

/** The clicked control is about to disappear or be disabled: keep focus in the panel. */
function keepFocusInDialog(control: HTMLElement) {
  control.closest<HTMLElement>('[role="dialog"]')?.focus();
}

function SignedOutPanel({ titleId, from }: { titleId: string; from: string }) {
  return (
    <div className="stack bell-panel__empty">
      <h2 id={titleId} className="bell-panel__title">
        Notifications
      </h2>
      <p>Sign in to see your notifications about bids and messages.</p>
      <Link to="/login" state={{ from }} className="btn btn--dark btn--sm">
        Sign In
      </Link>
    </div>
  );
}

function SignedInPanel({ titleId, onNavigate }: { titleId: string; onNavigate: () => void }) {
  const notifications = useNotificationStore((s) => s.notifications);
  const unread = useNotificationStore((s) => s.unreadCount);
  const status = useNotificationStore((s) => s.status);
  const error = useNotificationStore((s) => s.error);
  const now = useNow();

  return (
    <>
      <div className="bell-panel__header">
        <div>
          <h2 id={titleId} className="bell-panel__title">
            Notifications
          </h2>
          <p className="bell-panel__count">{unread > 0 ? `${unread} unread` : 'All caught up'}</p>
        </div>
        <button
          type="button"
          className="btn btn--outline btn--sm"
          disabled={unread === 0}
          onClick={(event) => {
            keepFocusInDialog(event.currentTarget);
            void markEveryRead();
          }}
        >
          Mark all as read
        </button>
      </div>

      {error && status === 'ready' && (
        <p className="callout tone-error bell-panel__error" role="alert">
          {error}
        </p>
      )}

      {status === 'loading' && notifications.length === 0 && (
        <p className="stack bell-panel__empty" role="status">
          Loading notifications...
        </p>
      )}
      {status === 'error' && (
        <div className="stack bell-panel__empty" role="alert">
          <p>{error}</p>
          <button type="button" className="btn btn--dark btn--sm" onClick={() => void loadNotifications()}>
            Retry
          </button>
        </div>
      )}
      {status === 'ready' && notifications.length === 0 && (
        <p className="stack bell-panel__empty">You have no notifications yet.</p>
      )}

      {notifications.length > 0 && (
        <ul className="bell-panel__list" aria-label="Notifications, newest first">
          {notifications.map((n) => (
            <NotificationItem key={n.id} notification={n} now={now} onNavigate={onNavigate} />
          ))}
        </ul>
      )}
    </>
  );
}

function NotificationItem({
  notification: n,
  now,
  onNavigate,
}: {
  notification: AppNotification;
  now: number;
  onNavigate: () => void;
}) {
  const Icon = TYPE_ICONS[n.type] ?? InfoIcon;
  const link = notificationLink(n);
  return (
    <li className={n.read ? 'bell-item' : 'bell-item bell-item--unread'} data-testid="notification-item">
      <span className="ink-disc bell-item__icon">
        <Icon size={18} />
      </span>
      <div className="bell-item__body">
        <p className="bell-item__title">
          {!n.read && <span className="sr-only">Unread: </span>}
          {n.title}
        </p>
        <p className="bell-item__message">{n.message}</p>
        <div className="cluster bell-item__meta">
          <time dateTime={n.timestamp} title={formatDateTime(n.timestamp)}>
            {formatRelativeTime(n.timestamp, now)}
          </time>
          {link && (
            <Link
              to={link.to}
              className="text-link"
              onClick={() => {
                if (!n.read) void markOneRead(n.id);
                onNavigate();
              }}
            >
              {link.label}
            </Link>
          )}
          {!n.read && (
            <button
              type="button"
              className="link-button"
              onClick={(event) => {
                keepFocusInDialog(event.currentTarget);
                void markOneRead(n.id);
              }}
            >
              Mark as read<span className="sr-only">: {n.title}</span>
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
