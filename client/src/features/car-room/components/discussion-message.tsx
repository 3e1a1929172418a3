import { useState, type ReactNode } from 'react';
import { ClockIcon, ThumbsUpIcon } from '../../../components/ui/icons.tsx';
import { formatDateTime, formatMessageTime } from '../../../lib/relative-time.ts';
import { HELD_MESSAGE_NOTICE, type ChatAuthorTag, type ChatMessage } from '../api/car-room-api.ts';
import { discussionRefusal } from '../lib/discussion-errors.ts';
import { voteOn } from '../stores/car-room-store.ts';

/** Who is reading the discussion, as far as its controls care. */
export interface DiscussionViewer {
  /** Signed in (null: a visitor). */
  userId: number | null;
  /** Signed in with a verified email: may post, reply, vote and report. */
  canTakePart: boolean;
  /** The car's seller (their replies to questions are its answers). */
  isSeller: boolean;
}

/** Each author tag's badge, in the order they are shown. */
const TAG_BADGES: Record<ChatAuthorTag, { label: string; className: string; title: string }> = {
  seller: { label: 'Seller', className: 'badge badge--author tone-success', title: 'The seller of this car' },
  bidder: { label: 'Bidder', className: 'badge badge--author tone-info', title: 'Has bid on this car' },
  buyer: { label: 'Buyer', className: 'badge badge--author badge--buyer', title: 'Has bought a car on LuxeMotors' },
  staff: { label: 'Staff', className: 'badge badge--author badge--staff', title: 'LuxeMotors team' },
};
const TAG_ORDER: readonly ChatAuthorTag[] = ['seller', 'staff', 'bidder', 'buyer'];

function AuthorTags({ message }: { message: ChatMessage }) {
  // `role: "seller"` predates the tags and still says so on its own.
  const tags = new Set<ChatAuthorTag>(message.authorTags);
  if (message.role === 'seller') tags.add('seller');
  return TAG_ORDER.filter((tag) => tags.has(tag)).map((tag) => (
    <span key={tag} className={TAG_BADGES[tag].className} title={TAG_BADGES[tag].title} data-testid={tag === 'seller' ? 'seller-badge' : `author-tag-${tag}`}>
      {TAG_BADGES[tag].label}
    </span>
  ));
}

export const upvoteLabel = (count: number) => `${count} ${count === 1 ? 'upvote' : 'upvotes'}`;

/**
 * The upvote control: a toggle (pressed once the reader's vote stands) for those who may vote on
 * the message, else the count alone. Refusals (muted, the message gone) are told beside it.
 */
function Upvote({ message, canVote }: { message: ChatMessage; canVote: boolean }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!canVote) {
    if (message.upvotes === 0) return null;
    return (
      <span className="chat-vote chat-vote--static">
        <ThumbsUpIcon size={14} />
        <span aria-hidden="true" data-testid="upvote-count">
          {message.upvotes}
        </span>
        <span className="sr-only">{upvoteLabel(message.upvotes)}</span>
      </span>
    );
  }
  async function toggle() {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await voteOn(message.carId, message.id, !message.upvotedByMe);
    } catch (error) {
      setProblem(discussionRefusal(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button
        type="button"
        className="chat-vote"
        aria-pressed={message.upvotedByMe}
        aria-busy={busy || undefined}
        onClick={() => void toggle()}
        title={message.upvotedByMe ? 'Take back your upvote' : 'Upvote this message'}
        data-testid="upvote"
      >
        <ThumbsUpIcon size={14} />
        <span className="sr-only">Upvote,</span>
        <span data-testid="upvote-count">{message.upvotes}</span>
      </button>
      {problem && (
        <span className="chat-msg__problem" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

/**
 * One message: its author with their tags, the kind (bid, question), the time, the text (as
 * text, never HTML), the author's own note when it is held, and its controls: upvote, reply
 * (top-level messages), report (others' messages).
 */
export function DiscussionMessage({
  message,
  viewer,
  reported,
  reply,
  onReport,
  now,
  orphan = false,
}: {
  message: ChatMessage;
  viewer: DiscussionViewer;
  /** The reader has reported it. */
  reported: boolean;
  /** The reply control of a top-level message (its count and button), drawn by the thread. */
  reply?: ReactNode;
  onReport: (message: ChatMessage) => void;
  now: number;
  orphan?: boolean;
}) {
  const mine = viewer.userId !== null && message.userId === viewer.userId;
  const held = message.status === 'held';
  const isBid = message.type === 'bid';
  const canVote = viewer.canTakePart && !mine && !held && !isBid;
  const canReport = viewer.canTakePart && !mine && !held && !isBid;
  return (
    <article className="chat-msg__body" aria-label={`${message.userName}, ${formatMessageTime(message.timestamp, now)}`}>
      <div className="chat-msg__meta">
        <span className="chat-msg__author">{message.userName}</span>
        <AuthorTags message={message} />
        {isBid && <span className="badge badge--bid">BID</span>}
        {message.type === 'question' && <span className="badge badge--question tone-info">Question</span>}
        {held && (
          <span className="badge badge--held tone-warning" data-testid="held-badge">
            Held for review
          </span>
        )}
        <time className="chat-msg__time" dateTime={message.timestamp} title={formatDateTime(message.timestamp)}>
          {formatMessageTime(message.timestamp, now)}
        </time>
      </div>
      {orphan && <p className="chat-msg__context">In reply to an earlier message</p>}
      <p className="chat-msg__text">{message.message}</p>
      {held && mine && (
        <p className="chat-msg__held" data-testid="held-notice">
          <ClockIcon size={15} />
          <span>{HELD_MESSAGE_NOTICE}</span>
        </p>
      )}
      {(canVote || message.upvotes > 0 || reply || canReport) && (
        <div className="chat-msg__actions">
          <Upvote message={message} canVote={canVote} />
          {reply}
          {canReport && (
            <button
              type="button"
              className="chat-action chat-action--quiet"
              aria-disabled={reported || undefined}
              onClick={() => {
                if (!reported) onReport(message);
              }}
              data-testid="report-button"
            >
              {reported ? 'Reported' : 'Report'}
            </button>
          )}
        </div>
      )}
    </article>
  );
}
