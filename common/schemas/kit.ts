import { Type, type TSchema, type TString } from 'typebox';
import { MAX_ID } from '../ids.ts';
import { MESSAGES_KEY, type FieldMessages } from '../validation.ts';

export { MAX_ID };

/** Building blocks of the request schemas: the same on the server, in forms and in the API docs. */

export const IsoDateTime = Type.String({ format: 'date-time' });

/** A string limited to `values`, with a plain "must be one of" message instead of a union's. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } & Annotations = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** Ids in bodies: 1 to 2,147,483,647 (an integer column). */
export const Id = (options: Annotations = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });

/** Text with at least one visible character. */
export const Text = (min: number, max: number, options: Annotations = {}) => Type.String({ minLength: min, maxLength: max, pattern: '\\S', ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const strict = { additionalProperties: false } as const;

interface Annotations {
  description?: string;
  [MESSAGES_KEY]?: FieldMessages;
}

/** The sentences a field shows for its broken rules (see `FieldMessages`). */
export const messages = (sentences: FieldMessages) => ({ [MESSAGES_KEY]: sentences });

/** Path ids arrive as text; the server answers 404 for anything that is not a positive integer. */
export const IdParam = <N extends string>(name: N) => Type.Object({ [name]: Type.String({ maxLength: 20 }) } as Record<N, TString>);

/** The optional `Idempotency-Key` header of writes that honour it. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description: 'Makes retries safe: the same key from the same user with the same request returns the first result; with a different request, 422 IDEMPOTENCY_KEY_REUSED. Kept at least 24 hours.',
    }),
  ),
});
