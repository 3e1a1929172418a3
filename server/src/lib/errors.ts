import type { FieldIssue } from '@common/validation.ts';

/** A failure the client caused or may act on; the error handler turns it into the contract's shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export type { FieldIssue };

export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const validationFailed = (issues: FieldIssue[], message = issues[0]?.message ?? 'Invalid request') =>
  new AppError(400, 'VALIDATION_FAILED', message, issues);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const conflict = (code: string, message: string, details?: unknown) => new AppError(409, code, message, details);

/** Whether a database error (possibly wrapped by the driver or the ORM) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
