import { ERROR_CODES, ErrorCode, type CodeWithStatus, type StatusOf } from '@common/error-codes.ts';
import type { FieldIssue } from '@common/validation.ts';
import type { FastifyReply } from 'fastify';

/**
 * A failure the client caused or may act on; the error handler turns it into the contract's
 * shape. Its status is the code's, from common/error-codes.ts; without a message of its own it
 * says the code's default sentence.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: C,
    message: string = ERROR_CODES[code].message,
    readonly details?: unknown,
    /** Only for the one code the contract answers with two statuses (TOTP_REQUIRED). */
    status?: StatusOf<C>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = (status as number | undefined) ?? ERROR_CODES[code].status;
  }
}

export type { FieldIssue };

export const notFound = (message?: string) => new AppError(ErrorCode.NOT_FOUND, message);
export const validationFailed = (issues: FieldIssue[], message = issues[0]?.message) => new AppError(ErrorCode.VALIDATION_FAILED, message, issues);
export const unauthorized = (message?: string) => new AppError(ErrorCode.UNAUTHORIZED, message);
/** Signed in, but not allowed: any code the contract answers with 403. */
export const forbidden = (code: CodeWithStatus<403>, message?: string) => new AppError(code, message, undefined, 403);
/** The request is sound, the state of things refuses it: any 409 code. */
export const conflict = (code: CodeWithStatus<409>, message?: string, details?: unknown) => new AppError(code, message, details);

/** The contract's failure body `{error, code, details?}`: the code's default sentence unless `message` says more. */
export function errorBody<C extends ErrorCode>(code: C, message: string = ERROR_CODES[code].message, details?: unknown): { error: string; code: C; details?: unknown } {
  return { error: message, code, ...(details === undefined ? {} : { details }) };
}

/** Answers `code` with its status from the list, for places that reply rather than throw. */
export function sendError(reply: FastifyReply, code: ErrorCode, message?: string, details?: unknown): FastifyReply {
  return reply.status(ERROR_CODES[code].status).send(errorBody(code, message, details));
}

/** Whether a database error (possibly wrapped by the driver or the ORM) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
