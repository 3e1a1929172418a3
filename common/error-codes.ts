/**
 * Every code the server answers in a failure body `{error, code, details?}` (HTTP, socket
 * acknowledgements, the car feed and the operator channel), each with the HTTP status it is
 * answered with and the sentence a client shows when an answer carries no `error` of its own.
 * The server's own `error` text is usually more precise ("Your bid must be at least $41,000");
 * the sentence here is the fallback. The server cannot answer a code missing from this table
 * (its errors take an `ErrorCode`), and the web app compares codes only through it.
 */

interface ErrorCodeEntry {
  readonly status: number;
  readonly message: string;
  /** Another status the contract answers this code with at particular routes. */
  readonly alsoStatus?: number;
}

export const ERROR_CODES = {
  // 400: the request itself is wrong.
  VALIDATION_FAILED: { status: 400, message: 'Invalid request' },
  INVALID_BODY: { status: 400, message: 'The request body could not be read' },
  BAD_REQUEST: { status: 400, message: 'The request could not be processed' },
  INVALID_TOKEN: { status: 400, message: 'Invalid or expired token' },
  INVALID_TOTP: { status: 400, message: 'That code did not match. Check the time on your phone and try the current code.' },
  INVALID_IMAGE: { status: 400, message: 'This image could not be read. Try another file.' },
  IMAGE_TOO_LARGE: { status: 400, message: 'This image has too many pixels' },
  INVALID_DOCUMENT: { status: 400, message: 'This document could not be accepted: it is damaged, encrypted, or carries scripts, actions or attached files' },

  // 401: who is asking is not known.
  UNAUTHORIZED: { status: 401, message: 'Authentication required' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password' },
  // Sign-in without the code: 401; the console for a session signed in without it: 403.
  TOTP_REQUIRED: { status: 401, alsoStatus: 403, message: 'Two-factor sign-in is required' },

  PAYMENT_DECLINED: { status: 402, message: 'The payment was declined' },

  // 403: known, but not allowed.
  NOT_ALLOWED: { status: 403, message: 'You are not allowed to do this' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Email not verified' },
  ACCOUNT_SUSPENDED: { status: 403, message: 'This account is suspended. Contact support if you think this is a mistake.' },
  CANNOT_BUY_OWN_CAR: { status: 403, message: 'You cannot order your own car' },
  CANNOT_BID_OWN_CAR: { status: 403, message: 'You cannot bid on your own car' },
  FORBIDDEN_ORIGIN: { status: 403, message: 'Origin not allowed' },
  MUTED: { status: 403, message: 'You cannot post, vote or report in discussions until your mute ends' },

  // 404: no such thing, or someone else's.
  NOT_FOUND: { status: 404, message: 'Not found' },

  // 409: the request is fine, the state of things refuses it.
  INVALID_TRANSITION: { status: 409, message: 'This cannot be done in its current state' },
  CAR_NOT_AVAILABLE: { status: 409, message: 'This car is no longer available' },
  PRICE_CHANGED: { status: 409, message: 'The asking price has changed. Review it and order again.' },
  AUCTION_LISTING: { status: 409, message: 'This car is sold at auction: place a bid instead' },
  AUCTION_IN_PROGRESS: { status: 409, message: 'The auction is still running' },
  AUCTION_ENDED: { status: 409, message: 'This auction has ended' },
  AUCTION_HAS_BIDS: { status: 409, message: "An auction's starting price cannot change once it has bids" },
  AUCTION_ENDS_TOO_SOON: { status: 409, message: 'This auction would end too soon; list the car again with a later end' },
  ACCEPT_WINDOW_CLOSED: { status: 409, message: 'The day to accept the highest bid after the auction has passed' },
  BID_TOO_LOW: { status: 409, message: 'Your bid is below the lowest amount accepted now' },
  BID_NOT_HIGHEST: { status: 409, message: 'Only the highest bid can be accepted' },
  ABOVE_ESCROW_LIMIT: { status: 409, message: 'This is more than escrow covers' },
  ORDER_EXISTS: { status: 409, message: 'You already have an open order for this car' },
  OFFER_EXISTS: { status: 409, message: 'You already have an open offer for this car' },
  NO_RUNNER_UP: { status: 409, message: 'Nobody but the winner bid on this auction' },
  DEADLINE_PASSED: { status: 409, message: 'The time for this has passed' },
  LISTING_LOCKED: { status: 409, message: 'This listing can no longer be changed' },
  NOT_A_DRAFT: { status: 409, message: 'This listing is already published' },
  TOO_MANY_PHOTOS: { status: 409, message: 'This listing has as many photos as it can hold' },
  TOO_MANY_DOCUMENTS: { status: 409, message: 'This listing has as many documents as it can hold' },
  LIMIT_REACHED: { status: 409, message: 'You have as many as you can keep. Delete one to add another.' },
  TOO_MANY_SUBSCRIPTIONS: { status: 409, message: 'There are too many subscriptions already' },
  TOTP_ALREADY_ENABLED: { status: 409, message: 'Two-factor sign-in is already on for this account.' },
  TOTP_NOT_STARTED: { status: 409, message: 'Start the set-up first: ask for a new secret.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still being processed' },
  NOT_ALLOWED_ON_SELF: { status: 409, message: 'You cannot do this to your own account' },
  ALREADY_SUSPENDED: { status: 409, message: 'This account is already suspended' },
  NOT_SUSPENDED: { status: 409, message: 'This account is not suspended' },
  NOT_A_SELLER: { status: 409, message: 'This account has no seller profile yet: it has never listed a car' },
  ALREADY_VERIFIED: { status: 409, message: 'This seller is already verified' },
  ROLE_UNCHANGED: { status: 409, message: 'This account already has that role' },
  ALREADY_HIDDEN: { status: 409, message: 'This listing is already hidden' },
  NOT_HIDDEN: { status: 409, message: 'This listing is not hidden' },
  DUPLICATE_MESSAGE: { status: 409, message: 'You just posted this message here' },
  ALREADY_REPORTED: { status: 409, message: 'You have already reported this message' },
  NOT_MUTED: { status: 409, message: 'This account is not muted' },
  SELLER_SUSPENDED: { status: 409, message: "This listing comes back when its seller's account is unsuspended" },

  // Limits and formats of the transport.
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This type of content is not accepted here' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was already used for a different request' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },

  // 5xx: the server's side.
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  // Answered to the operator's `npm run audit:verify` only.
  AUDIT_CHAIN_BROKEN: { status: 500, message: 'The audit log does not match its hashes' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is briefly unavailable. Please try again in a moment.' },
  SERVICE_DEGRADED: { status: 503, message: 'The database is unreachable' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Each code by name, so both sides refer to codes without string literals
 * (`ErrorCode.LISTING_LOCKED`): a misspelt name fails to compile.
 */
export const ErrorCode = codeConstants(ERROR_CODES);

/** The statuses `code` may be answered with: its own, and the other one where the contract has two. */
export type StatusOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]['status'] | ((typeof ERROR_CODES)[C] extends { alsoStatus: infer S } ? S : never);

/** The codes that may be answered with `status` (e.g. every 409 for a conflict). */
export type CodeWithStatus<S extends number> = { [C in ErrorCode]: S extends StatusOf<C> ? C : never }[ErrorCode];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The statuses the server may answer `code` with (one for all but TOTP_REQUIRED). */
export function statusesOf(code: ErrorCode): readonly number[] {
  const entry: ErrorCodeEntry = ERROR_CODES[code];
  return entry.alsoStatus === undefined ? [entry.status] : [entry.status, entry.alsoStatus];
}

/** `{A: 'A', B: 'B'}` for a table keyed by code. */
export function codeConstants<T extends object>(table: T): { readonly [K in keyof T & string]: K } {
  return Object.freeze(Object.fromEntries(Object.keys(table).map((code) => [code, code]))) as { readonly [K in keyof T & string]: K };
}
