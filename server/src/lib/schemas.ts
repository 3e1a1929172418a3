import { Type, type TSchema } from 'typebox';

/** The contract's failure body. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human sentence the client shows' }),
    code: Type.String({ description: 'Machine-readable code, e.g. VALIDATION_FAILED' }),
    details: Type.Optional(Type.Unknown()),
  },
  { title: 'Error' },
);

/** `{ data: T }`, the contract's success envelope. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data });

/** Response schemas for the failures every route can produce. */
export const commonErrors = {
  400: ErrorBody,
  500: ErrorBody,
} as const;

export const IsoDateTime = Type.String({ format: 'date-time' });

/** A string limited to `values`, with a plain "must be one of" message instead of a union's. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
