/**
 * The discussion's rules (contract v4, "The discussion"): what a message may be, who may say what
 * how often, and the sentence a held message's author sees. The request schemas, the database's
 * checks, the chat services and the car room all read these.
 */

/** `visible` to everyone; `held` for its author and staff only; `removed` for staff only. */
export const CHAT_MESSAGE_STATUSES = ['visible', 'held', 'removed'] as const;
export type ChatMessageStatus = (typeof CHAT_MESSAGE_STATUSES)[number];

/** What put a message on hold: the contact guard when it was posted, or readers' reports. */
export const CHAT_HELD_BY = ['guard', 'reports'] as const;
export type ChatHeldBy = (typeof CHAT_HELD_BY)[number];

/** Badges computed from the data when a message is read, never stored. */
export const CHAT_AUTHOR_TAGS = ['seller', 'bidder', 'buyer', 'staff'] as const;
export type ChatAuthorTag = (typeof CHAT_AUTHOR_TAGS)[number];

export const CHAT_REPORT_REASONS = ['spam', 'off_platform', 'abuse', 'other'] as const;
export type ChatReportReason = (typeof CHAT_REPORT_REASONS)[number];

/** What the author of a held message is told, beside their own copy of it. */
export const HELD_MESSAGE_NOTICE = 'Messages with contact details or payment instructions are checked by our team first: pay only through escrow';

/** At most this many messages by one user on one car within the window. */
export const CHAT_RATE_LIMIT = { messages: 5, windowSeconds: 30 } as const;

/** The same text by the same user on the same car within this many seconds is refused. */
export const CHAT_DUPLICATE_WINDOW_SECONDS = 60;

/** Reports from this many different users hold a visible message for an operator. */
export const CHAT_REPORTS_TO_HOLD = 3;

export const CHAT_REPORT_NOTE_MAX_LENGTH = 500;

/** How long an operator may mute a user, in whole hours (up to 30 days). */
export const MUTE_HOURS = { min: 1, max: 720 } as const;

/** The moderation queue's filter: held messages, reported ones, or both when left out. */
export const CHAT_QUEUE_FILTERS = ['held', 'reported'] as const;
export type ChatQueueFilter = (typeof CHAT_QUEUE_FILTERS)[number];
