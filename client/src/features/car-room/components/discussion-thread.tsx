import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { countLabel } from '../../../lib/quantities.ts';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatMessage } from '../api/car-room-api.ts';
import { discussionRefusal } from '../lib/discussion-errors.ts';
import { sendChatMessage } from '../stores/car-room-store.ts';
import { replyCountOf, type Thread } from '../stores/discussion-merge.ts';
import { DiscussionMessage, type DiscussionViewer } from './discussion-message.tsx';

function messageClasses(message: ChatMessage, viewer: DiscussionViewer, extra: string): string {
  return [
    'chat-msg',
    extra,
    message.type === 'bid' ? 'chat-msg--bid' : '',
    message.role === 'seller' || message.authorTags.includes('seller') ? 'chat-msg--seller' : '',
    message.status === 'held' ? 'chat-msg--held' : '',
    viewer.userId !== null && message.userId === viewer.userId ? 'chat-msg--mine' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * A top-level message with its replies under it (one level) and, while open, the form to reply.
 * The seller's reply to a question is its answer, and the button says so.
 */
export function DiscussionThread({
  thread,
  viewer,
  reportedIds,
  replying,
  onReplyToggle,
  onReport,
  onPosted,
  now,
}: {
  thread: Thread;
  viewer: DiscussionViewer;
  reportedIds: ReadonlySet<number>;
  replying: boolean;
  onReplyToggle: (open: boolean) => void;
  onReport: (message: ChatMessage) => void;
  /** A reply was posted (the list may bring it into view). */
  onPosted: (message: ChatMessage) => void;
  now: number;
}) {
  const { message, replies, orphan } = thread;
  const replyButton = useRef<HTMLButtonElement>(null);
  const count = replyCountOf(thread);
  // Bids speak for themselves; the conversation happens under messages and questions.
  const canReply = viewer.canTakePart && !orphan && message.status === 'visible' && message.type !== 'bid';
  const answers = viewer.isSeller && message.type === 'question';
  const verb = answers ? 'Answer' : 'Reply';

  const replyControl = orphan ? undefined : (
    <>
      {count > 0 && (
        <span className="chat-msg__reply-count" data-testid="reply-count">
          {countLabel(count, 'reply', 'replies')}
        </span>
      )}
      {canReply && (
        <button
          ref={replyButton}
          type="button"
          className="chat-action"
          aria-expanded={replying}
          onClick={() => onReplyToggle(!replying)}
          data-testid="reply-button"
        >
          {verb}
        </button>
      )}
    </>
  );

  return (
    <li
      className={messageClasses(message, viewer, orphan ? 'chat-msg--orphan' : '')}
      data-testid="chat-message"
      data-message-id={message.id}
      // A bid's line in the discussion is not read out as it arrives: the price status says bids, throttled.
      aria-live={message.type === 'bid' ? 'off' : undefined}
    >
      <DiscussionMessage
        message={message}
        viewer={viewer}
        reported={reportedIds.has(message.id)}
        reply={replyControl}
        onReport={onReport}
        now={now}
        orphan={orphan}
      />
      {replies.length > 0 && (
        <ol className="chat-replies" aria-label={`Replies to ${message.userName}`}>
          {replies.map((reply) => (
            <li key={reply.id} className={messageClasses(reply, viewer, 'chat-msg--reply')} data-testid="chat-reply" data-message-id={reply.id}>
              <DiscussionMessage message={reply} viewer={viewer} reported={reportedIds.has(reply.id)} onReport={onReport} now={now} />
            </li>
          ))}
        </ol>
      )}
      {replying && canReply && (
        <ReplyForm
          parent={message}
          verb={verb}
          onClose={() => {
            onReplyToggle(false);
            replyButton.current?.focus();
          }}
          onPosted={onPosted}
        />
      )}
    </li>
  );
}

function ReplyForm({ parent, verb, onClose, onPosted }: { parent: ChatMessage; verb: string; onClose: () => void; onPosted: (message: ChatMessage) => void }) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => input.current?.focus(), []);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = draft.trim();
    if (!text || sending) return;
    setSending(true);
    setProblem(null);
    try {
      const posted = await sendChatMessage(parent.carId, text, 'message', parent.id);
      setDraft('');
      onPosted(posted);
      onClose();
    } catch (error) {
      setProblem(discussionRefusal(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="chat-reply-form" onSubmit={(event) => void send(event)} data-testid="reply-form">
      <label htmlFor={inputId} className="sr-only">
        {verb} to {parent.userName}
      </label>
      <div className="chat__compose">
        <input
          ref={input}
          id={inputId}
          className="input"
          type="text"
          value={draft}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          placeholder={verb === 'Answer' ? 'Answer this question...' : `Reply to ${parent.userName}...`}
          autoComplete="off"
          enterKeyHint="send"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !sending) {
              event.preventDefault();
              onClose();
            }
          }}
          onChange={(event) => {
            setDraft(event.target.value);
            if (problem) setProblem(null);
          }}
        />
        <button type="submit" className="btn btn--dark btn--sm" disabled={sending || draft.trim() === ''}>
          {sending ? 'Sending...' : verb === 'Answer' ? 'Post Answer' : 'Post Reply'}
        </button>
        <button type="button" className="btn btn--outline btn--sm" onClick={onClose} disabled={sending}>
          Cancel
        </button>
      </div>
      {problem && (
        <p id={errorId} className="field__hint field__hint--error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
