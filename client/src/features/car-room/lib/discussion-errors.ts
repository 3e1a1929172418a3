import { ErrorCode } from '@common/error-codes.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';

/**
 * What the discussion says when the server refuses a post, a reply, a vote or a report: the
 * refusals that need more than the server's sentence (when a mute ends, how long to wait) are
 * spelled out from their details; the rest keep the server's words.
 */
export function discussionRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  const details = (typeof error.details === 'object' && error.details !== null ? error.details : {}) as Record<string, unknown>;
  switch (error.code) {
    case ErrorCode.MUTED: {
      const until = typeof details.until === 'string' ? formatDateTime(details.until) : '';
      return until
        ? `You are muted in discussions until ${until}: you cannot post, reply, vote or report until then.`
        : 'You are muted in discussions for now: you cannot post, reply, vote or report.';
    }
    case ErrorCode.RATE_LIMITED: {
      const seconds = typeof details.retryAfter === 'number' && details.retryAfter > 0 ? Math.ceil(details.retryAfter) : null;
      return seconds === null
        ? 'You are posting too quickly. Wait a moment, then send it again.'
        : `You are posting too quickly. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}, then send it again.`;
    }
    case ErrorCode.DUPLICATE_MESSAGE:
      return 'You just posted this same message here. Write something new, or wait a minute.';
    case ErrorCode.ALREADY_REPORTED:
      return 'You have already reported this message. Our team will look at it.';
    case ErrorCode.EMAIL_NOT_VERIFIED:
      return 'Verify your email address to take part in the discussion.';
    default:
      if (error.status === 404) return 'This message is no longer shown.';
      return error.message;
  }
}
