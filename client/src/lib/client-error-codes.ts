import { codeConstants, type ErrorCode } from '@common/error-codes.ts';

/**
 * Failures the web app reports itself, which no server answer carries: the network or the
 * socket is away, the session could not be renewed, a move is refused before it is sent. They
 * stay out of common/error-codes.ts because that list is what the server may answer (the server
 * cannot send these, and the API's description will list that one); both lists together are
 * every code an `ApiError` or a socket acknowledgement can hold here.
 */
export const CLIENT_ERRORS = {
  NETWORK_ERROR: { message: 'Network error occurred' },
  SESSION_EXPIRED: { message: 'Your session has ended. Please sign in again.' },
  OFFLINE: { message: 'Not connected' },
  TIMEOUT: { message: 'The server did not answer in time' },
  NO_BIDS: { message: 'There are no bids on this car.' },
} as const satisfies Record<string, { message: string }>;

export type ClientErrorCode = keyof typeof CLIENT_ERRORS;
export const ClientErrorCode = codeConstants(CLIENT_ERRORS);

/** Every code the web app compares: the server's and its own. */
export type AnyErrorCode = ErrorCode | ClientErrorCode;
