import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { MessageIcon } from '../../../components/ui/icons.tsx';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNow } from '../../../lib/use-now.ts';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatMessage } from '../api/car-room-api.ts';
import { countLabel } from '../../../lib/quantities.ts';
import { discussionRefusal } from '../lib/discussion-errors.ts';
import { reportedKey, sendChatMessage, useCarRoomStore } from '../stores/car-room-store.ts';
import { threadsOf } from '../stores/discussion-merge.ts';
import type { DiscussionViewer } from './discussion-message.tsx';
import { DiscussionThread } from './discussion-thread.tsx';
import { ReportDialog } from './report-dialog.tsx';
import { SendIcon } from './room-icons.tsx';
import { useSessionDependent } from '../../../lib/use-hydrated.ts';

/** How close to the end (px) still counts as "reading the newest messages". */
const BOTTOM_SLACK_PX = 48;

/** The ids of the messages `userId` has reported (none for a visitor). */
function useReportedIds(userId: number | null, messages: readonly ChatMessage[]): ReadonlySet<number> {
  const flags = useCarRoomStore(useShallow((s) => (userId === null ? [] : messages.map((m) => s.reported[reportedKey(userId, m.id)] === true))));
  return useMemo(() => new Set(messages.filter((_, i) => flags[i]).map((m) => m.id)), [messages, flags]);
}

/**
 * Live Discussion (spec §2, contract v4): the car's messages, history first and then live, each
 * top-level one with its replies under it; anyone can read, signed-in verified users can write,
 * reply, upvote and report. Text is rendered as text, never as HTML. A held message is shown to
 * its author only, with why.
 */
export function LiveDiscussion({
  carId,
  sellerUserId,
  messages,
  loaded,
  loadError,
}: {
  carId: number;
  /** The seller's account (null for a dealer listing without one). */
  sellerUserId: number | null;
  messages: ChatMessage[];
  loaded: boolean;
  loadError: string | null;
}) {
  const titleId = useId();
  const noteId = useId();
  const inputId = useId();
  const location = useLocation();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const user = useSessionStore((s) => s.user);
  const userId = isAuthenticated && user ? user.id : null;
  const sessionDependent = useSessionDependent();
  const now = useNow(60_000);
  const viewer: DiscussionViewer = useMemo(
    () => ({ userId, canTakePart: userId !== null && Boolean(user?.email_verified), isSeller: userId !== null && userId === sellerUserId }),
    [userId, user?.email_verified, sellerUserId],
  );
  const threads = useMemo(() => threadsOf(messages), [messages]);
  const reportedIds = useReportedIds(userId, messages);
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [reporting, setReporting] = useState<ChatMessage | null>(null);
  const [reportDone, setReportDone] = useState<string | null>(null);

  const listRef = useRef<HTMLDivElement>(null);
  // The report dialog leaves the page as it closes, after it has tried to give focus back: once it
  // has gone, focus goes to the Report button of the message it was about.
  const focusReportButtonOf = useRef<number | null>(null);
  useEffect(() => {
    const id = focusReportButtonOf.current;
    if (reporting !== null || id === null) return;
    focusReportButtonOf.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-message-id="${id}"] [data-testid="report-button"]`)?.focus();
  }, [reporting]);
  const atBottom = useRef(true);
  const [draft, setDraft] = useState('');
  const [kind, setKind] = useState<'message' | 'question'>('message');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  // Follow new messages only when the reader is already at the newest one.
  const newestId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && atBottom.current) list.scrollTop = list.scrollHeight;
  }, [newestId]);

  function onScroll() {
    const list = listRef.current;
    if (list) atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight <= BOTTOM_SLACK_PX;
  }

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = draft.trim();
    if (!text || sending) return; // whitespace-only is ignored
    setSending(true);
    setSendError(null);
    atBottom.current = true; // show your own message
    try {
      await sendChatMessage(carId, text, kind);
      setDraft('');
      setKind('message');
    } catch (error) {
      setSendError(discussionRefusal(error));
    } finally {
      setSending(false);
    }
  }

  const from = `${location.pathname}${location.search}`;

  /** Brings a reply just posted into view within the list (it may sit far above the newest message). */
  function showPosted(message: ChatMessage) {
    requestAnimationFrame(() => {
      const list = listRef.current;
      const item = list?.querySelector<HTMLElement>(`[data-message-id="${message.id}"]`);
      if (!list || !item) return;
      const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      const bottom = top + item.offsetHeight;
      if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, Math.min(top, bottom - list.clientHeight + BOTTOM_SLACK_PX / 2));
      }
    });
  }

  return (
    <section className="room-card chat" aria-labelledby={titleId}>
      <div className="split-row chat__header">
        <h2 id={titleId} className="room-card__title">
          <MessageIcon size={20} /> Live Discussion
        </h2>
        <span className="chat__count" data-testid="message-count">
          {countLabel(messages.length, 'message')}
        </span>
      </div>

      <div
        ref={listRef}
        className="chat__messages"
        role="log"
        aria-live="polite"
        aria-label="Discussion messages"
        aria-describedby={noteId}
        tabIndex={0}
        onScroll={onScroll}
        data-testid="chat-messages"
      >
        {threads.length > 0 && (
          <ol className="chat__list">
            {threads.map((thread) => (
              <DiscussionThread
                key={thread.message.id}
                thread={thread}
                viewer={viewer}
                reportedIds={reportedIds}
                replying={replyingTo === thread.message.id}
                onReplyToggle={(open) => setReplyingTo(open ? thread.message.id : null)}
                onReport={(message) => {
                  setReportDone(null);
                  setReporting(message);
                }}
                onPosted={showPosted}
                now={now}
              />
            ))}
          </ol>
        )}
        {loaded && messages.length === 0 && (
          <p className="chat__empty">No messages yet. Ask the seller anything about this car.</p>
        )}
        {!loaded && !loadError && <p className="chat__empty">Loading messages...</p>}
      </div>
      {loadError && !loaded && (
        <p className="chat__error" role="alert">
          {loadError}
        </p>
      )}

      {userId === null ? (
        <p className="callout tone-info chat__prompt" data-testid="chat-sign-in-prompt" {...sessionDependent}>
          <Link to="/login" state={{ from }} className="text-link">
            Sign in
          </Link>{' '}
          to join the discussion.
        </p>
      ) : !user?.email_verified ? (
        <p className="callout tone-info chat__prompt" data-testid="chat-verify-prompt">
          Verify your email address to join the discussion. Use the link we emailed you, or resend it from your{' '}
          <Link to="/dashboard" className="text-link">
            dashboard
          </Link>
          .
        </p>
      ) : (
        <form className="chat__form" onSubmit={send}>
          <div className="chat__kinds" role="group" aria-label="Post as">
            <button type="button" className="chat__kind" aria-pressed={kind === 'message'} onClick={() => setKind('message')}>
              Message
            </button>
            <button type="button" className="chat__kind" aria-pressed={kind === 'question'} onClick={() => setKind('question')}>
              Question
            </button>
          </div>
          <div className="chat__compose">
            <label htmlFor={inputId} className="sr-only">
              Your message
            </label>
            <input
              id={inputId}
              className="input"
              type="text"
              value={draft}
              maxLength={CHAT_MESSAGE_MAX_LENGTH}
              placeholder="Ask a question or share thoughts..."
              autoComplete="off"
              enterKeyHint="send"
              aria-invalid={sendError ? true : undefined}
              onChange={(event) => {
                setDraft(event.target.value);
                if (sendError) setSendError(null);
              }}
            />
            <button type="submit" className="btn btn--primary" disabled={sending || draft.trim() === ''}>
              <SendIcon size={18} />
              <span className="sr-only-phone">Send</span>
            </button>
          </div>
          {sendError && (
            <p className="field__hint field__hint--error" role="alert" data-testid="chat-send-error">
              {sendError}
            </p>
          )}
        </form>
      )}
      <p className="chat__report-done" role="status" data-testid="report-done">
        {reportDone}
      </p>
      {reporting && (
        <ReportDialog
          message={reporting}
          onClose={() => {
            // The dialog leaves the page as it closes: focus goes back to the message's Report button.
            focusReportButtonOf.current = reporting.id;
            setReporting(null);
          }}
          onReported={() => setReportDone('Thank you. Our moderators will look at this message.')}
        />
      )}
      <p id={noteId} className="chat__note">
        <span className="live-dot" aria-hidden="true" />
        Messages are live and visible to all interested buyers
      </p>
    </section>
  );
}
