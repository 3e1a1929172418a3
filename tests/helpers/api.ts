import type { LightMyRequestResponse } from 'fastify';
import type { ErrorBody } from '@common/schemas/envelope.ts';
import type { TestApp } from './app.ts';
import { createUser, type SignedInUser } from './users.ts';

/**
 * Requests to the app under test, in-process (`inject`), as a signed-in user or a visitor. The
 * one place a test's request gets its `authorization` header: every test file builds on it.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Anyone with a session (a `SignedInUser`, a `StaffUser`); undefined or null is a visitor. */
export type Caller = { auth: { authorization: string } } | undefined | null;

/** `method url` as `user`, with a JSON body when one is given and any extra headers. */
export function request(t: TestApp, method: Method, url: string, user?: Caller, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: { ...(user ? user.auth : {}), ...headers },
  });
}

export type Call = (method: Method, url: string, user?: Caller, payload?: unknown, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/**
 * `request` bound to the app a file starts in `beforeAll`: `const call = requestsTo(() => t)`.
 * The app is read at each call, so the binding can be made before the app exists.
 */
export function requestsTo(app: () => TestApp): Call {
  return (method, url, user, payload, headers) => request(app(), method, url, user, payload, headers);
}

/** `request`, expecting success: answers the `data` of the envelope and throws with the body otherwise. */
export async function dataOf<T>(t: TestApp, method: Method, url: string, user?: Caller, payload?: unknown): Promise<T> {
  const res = await request(t, method, url, user, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data as T;
}

/** An answer, with its `data` (success) or its failure body read as the contract shapes them. */
export interface Answer<T> {
  status: number;
  /** `data` of a success answer; undefined for a failure. */
  data: T;
  /** The failure body (`{ error, code, details? }`); undefined for a success. */
  failure: ErrorBody | undefined;
  /** The raw body, for failure messages. */
  body: string;
  headers: LightMyRequestResponse['headers'];
}

function answerOf<T>(res: LightMyRequestResponse): Answer<T> {
  let parsed: { data?: T } & Partial<ErrorBody> = {};
  try {
    parsed = res.json();
  } catch {
    // Not JSON (an empty 204, a page): there is neither data nor a failure body.
  }
  const failed = res.statusCode >= 400;
  return { status: res.statusCode, data: parsed.data as T, failure: failed ? (parsed as ErrorBody) : undefined, body: res.body, headers: res.headers };
}

/** Typed requests as one caller. `T` is the `Static<>` type of the answer's shared schema (`common/schemas`). */
export interface ApiClient {
  get<T = unknown>(url: string, headers?: Record<string, string>): Promise<Answer<T>>;
  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  put<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  patch<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  delete<T = unknown>(url: string, headers?: Record<string, string>): Promise<Answer<T>>;
  /** The untyped request, for tests that read headers or raw bodies. */
  call(method: Method, url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

function clientFor(t: TestApp, user: Caller): ApiClient {
  const call = (method: Method, url: string, payload?: unknown, headers?: Record<string, string>) => request(t, method, url, user, payload, headers);
  return {
    call,
    get: async (url, headers) => answerOf(await call('GET', url, undefined, headers)),
    post: async (url, body, headers) => answerOf(await call('POST', url, body ?? {}, headers)),
    put: async (url, body, headers) => answerOf(await call('PUT', url, body ?? {}, headers)),
    patch: async (url, body, headers) => answerOf(await call('PATCH', url, body ?? {}, headers)),
    delete: async (url, headers) => answerOf(await call('DELETE', url, undefined, headers)),
  };
}

/** Someone without a session. */
export function visitor(t: TestApp): ApiClient {
  return clientFor(t, undefined);
}

/** A signed-in account (a `SignedInUser`, so every other helper takes it) that makes requests as itself. */
export type SignedInClient = SignedInUser & ApiClient;

/**
 * A new verified account, signed in, with its requests: `const ann = await signedIn(t)`, then
 * `await ann.get<Orders>('/api/orders')`. Given an existing `user`, wraps that session instead.
 */
export async function signedIn(t: TestApp, options: { name?: string; email?: string } | SignedInUser = {}): Promise<SignedInClient> {
  const user = 'auth' in options ? options : await createUser(t, options);
  return { ...user, ...clientFor(t, user) };
}

/** Requests as an existing session (a `SignedInUser`, a `StaffUser`, anything with `auth`). */
export function requestsAs(t: TestApp, user: Caller): ApiClient {
  return clientFor(t, user);
}
