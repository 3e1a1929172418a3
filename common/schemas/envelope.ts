import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../error-codes.ts';

/** The contract's two answer shapes: `{ data }` on success, `{ error, code, details? }` on failure. */

/** The contract's failure body. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human sentence the client shows' }),
    code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CODES), description: 'Machine-readable code, one of common/error-codes.ts (e.g. VALIDATION_FAILED)' }),
    details: Type.Optional(Type.Unknown()),
  },
  { title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** `{ data: T }`, the contract's success envelope. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data });

/** Response schemas for the failures every route can produce. */
export const commonErrors = {
  400: ErrorBody,
  500: ErrorBody,
} as const;
