import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MessageIcon } from '../../../components/ui/icons.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime, formatMessageTime } from '../../../lib/relative-time.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNow } from '../../../lib/use-now.ts';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatMessage } from '../api/car-room-api.ts';
import { countLabel } from '../../../lib/quantities.ts';
import { sendChatMessage } from '../stores/car-room-store.ts';
import { SendIcon } from './room-icons.tsx';
import { useSessionDependent } from '../../../lib/use-hydrated.ts';

/** How close to the end (px) still counts as "reading the newest messages". */
const BOTTOM_SLACK_PX = 48;

/**
 * Live Discussion (spec §2): the car's messages, history first and then live; anyone can read,
 * signed-in verified users can write. Text is rendered as text, never as HTML.
 */
export function LiveDiscussion({
  carId,
  messages,
  loaded,
  loadError,
}: {
  carId: number;
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

  const listRef = useRef<HTMLDivElement>(null);
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
      setSendError(errorMessage(error));
    } finally {
      setSending(false);
    }
  }

  const from = `${location.pathname}${location.search}`;

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
        {messages.length > 0 && (
          <ol className="chat__list">
            {messages.map((m) => (
              <li
                key={m.id}
                className={[
                  'chat-msg',
                  m.type === 'bid' ? 'chat-msg--bid' : '',
                  m.role === 'seller' ? 'chat-msg--seller' : '',
                  userId !== null && m.userId === userId ? 'chat-msg--mine' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                data-testid="chat-message"
              >
                <div className="chat-msg__meta">
                  <span className="chat-msg__author">{m.userName}</span>
                  {m.role === 'seller' && (
                    <span className="badge badge--seller tone-success" data-testid="seller-badge">
                      Seller
                    </span>
                  )}
                  {m.type === 'bid' && <span className="badge badge--bid">BID</span>}
                  {m.type === 'question' && <span className="badge badge--question tone-info">Question</span>}
                  <time className="chat-msg__time" dateTime={m.timestamp} title={formatDateTime(m.timestamp)}>
                    {formatMessageTime(m.timestamp, now)}
                  </time>
                </div>
                <p className="chat-msg__text">{m.message}</p>
              </li>
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
            <p className="field__hint field__hint--error" role="alert">
              {sendError}
            </p>
          )}
        </form>
      )}
      <p id={noteId} className="chat__note">
        <span className="live-dot" aria-hidden="true" />
        Messages are live and visible to all interested buyers
      </p>
    </section>
  );
}
