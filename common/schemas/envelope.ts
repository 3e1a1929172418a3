import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { ERROR_CODES, type ErrorCode, type StatusOf } from '../error-codes.ts';

/** The contract's two answer shapes: `{ data }` on success, `{ error, code, details? }` on failure. */

const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/**
 * The failure body whose `code` is one of `codes`, each listed with its default sentence in the
 * description (which the API docs show as the answer's description).
 */
export function ErrorBodyOf<const C extends ErrorCode>(codes: readonly C[]) {
  const listed = ALL_CODES.filter((code): code is C => codes.includes(code as C));
  return Type.Object(
    {
      error: Type.String({ description: 'Human sentence the client shows' }),
      code: Type.Unsafe<C>({ type: 'string', enum: listed, description: 'Machine-readable code, from common/error-codes.ts' }),
      details: Type.Optional(Type.Unknown()),
    },
    { title: 'Error', description: listed.map((code) => `- ${code} — ${ERROR_CODES[code].message}`).join('\n') },
  );
}

/** The contract's failure body, with any code of the list (a socket acknowledgement, a body no route declares). */
export const ErrorBody = ErrorBodyOf(ALL_CODES);
export type ErrorBody = Static<typeof ErrorBody>;

/** `{ data: T }`, the contract's success envelope. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data });

/**
 * A failure a route declares it can answer: a code, at its status in the list, or the code with
 * the other status the list allows it (`{ code: ErrorCode.TOTP_REQUIRED, status: 403 }`).
 */
export type DeclaredError = ErrorCode | { [C in ErrorCode]: { readonly code: C; readonly status: StatusOf<C> } }[ErrorCode];

type StatusDeclared<D extends DeclaredError> = D extends ErrorCode
  ? (typeof ERROR_CODES)[D] extends { status: infer S extends number }
    ? S
    : never
  : D extends { status: infer S extends number }
    ? S
    : never;

const codeOf = (declared: DeclaredError): ErrorCode => (typeof declared === 'string' ? declared : declared.code);
const statusOf = (declared: DeclaredError): number => (typeof declared === 'string' ? ERROR_CODES[declared].status : declared.status);

/**
 * A route's failure answers, one schema per status: `errorResponses(ErrorCode.NOT_FOUND,
 * ErrorCode.LISTING_LOCKED)` is `{ 404: …NOT_FOUND, 409: …LISTING_LOCKED }`. The codes every
 * route of a kind answers (signed-in routes, bodies, rate limits…) are added to these by the
 * server as the route is registered (server/src/plugins/error-declarations.ts).
 */
export function errorResponses<const D extends readonly DeclaredError[]>(...declared: D): { [S in StatusDeclared<D[number]>]: TObject } {
  return withErrors({}, declared) as { [S in StatusDeclared<D[number]>]: TObject };
}

/** The codes a failure body allows (its `code` enum), or null for any other schema. */
export function errorCodesIn(schema: unknown): ErrorCode[] | null {
  const properties = (schema as { properties?: Record<string, { enum?: unknown }> } | null)?.properties;
  if (!properties || !Object.keys(properties).every((name) => name === 'error' || name === 'code' || name === 'details')) return null;
  const codes = properties.code?.enum;
  return Array.isArray(codes) ? (codes as ErrorCode[]) : null;
}

/**
 * `response` (a route's response schemas by status) with `declared` added: a status with a
 * failure body gets the union of its codes and these, a missing one a failure body of its own.
 * A status whose schema is not a failure body (a health report) is the route's to describe and
 * stays as it is. Nothing is changed in place: response maps and schemas are shared by routes.
 */
export function withErrors<R extends Record<string, unknown>>(response: R, declared: readonly DeclaredError[]): R & Record<number, TObject> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const item of declared) {
    const status = statusOf(item);
    const codes = byStatus.get(status) ?? new Set(errorCodesIn(response[status]) ?? []);
    byStatus.set(status, codes.add(codeOf(item)));
  }
  const merged: Record<string, unknown> = { ...response };
  for (const [status, codes] of byStatus) {
    const current = response[status];
    if (current !== undefined && errorCodesIn(current) === null) continue;
    merged[status] = ErrorBodyOf([...codes]);
  }
  return merged as R & Record<number, TObject>;
}
