import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/relative-time.ts';
import { discussionRefusal } from './discussion-errors.ts';

const refusal = (code: keyof typeof ERROR_CODES, details?: unknown, message = ERROR_CODES[code].message) =>
  new ApiError(message, ERROR_CODES[code].status, { code, ...(details !== undefined ? { details } : {}) });

describe('discussionRefusal', () => {
  it('tells a muted user when the mute ends', () => {
    const until = '2026-12-03T10:30:00.000Z';
    const text = discussionRefusal(refusal(ErrorCode.MUTED, { until }));
    expect(text).toContain(formatDateTime(until));
    expect(text).toMatch(/^You are muted in discussions until /);
    expect(discussionRefusal(refusal(ErrorCode.MUTED))).toMatch(/muted/);
  });

  it('says how long to wait after posting too quickly', () => {
    expect(discussionRefusal(refusal(ErrorCode.RATE_LIMITED, { retryAfter: 12 }))).toBe('You are posting too quickly. Wait 12 seconds, then send it again.');
    expect(discussionRefusal(refusal(ErrorCode.RATE_LIMITED, { retryAfter: 1 }))).toContain('Wait 1 second,');
    expect(discussionRefusal(refusal(ErrorCode.RATE_LIMITED))).toMatch(/Wait a moment/);
  });

  it('names a duplicate and a second report plainly', () => {
    expect(discussionRefusal(refusal(ErrorCode.DUPLICATE_MESSAGE))).toMatch(/^You just posted this same message here/);
    expect(discussionRefusal(refusal(ErrorCode.ALREADY_REPORTED))).toMatch(/^You have already reported this message/);
  });

  it('keeps the server’s words otherwise, and says a vanished message is gone', () => {
    expect(discussionRefusal(new ApiError('parentId: replies go one level deep', 400, { code: ErrorCode.VALIDATION_FAILED }))).toBe('parentId: replies go one level deep');
    expect(discussionRefusal(refusal(ErrorCode.NOT_FOUND))).toBe('This message is no longer shown.');
    expect(discussionRefusal(new Error('boom'))).toBe('An unexpected error occurred');
  });
});
