import { ERROR_CODES, isErrorCode } from '@common/error-codes.ts';
import { CLIENT_ERRORS, ClientErrorCode, type AnyErrorCode } from './client-error-codes.ts';
import { readLatestSession, useSessionStore } from './session-store.ts';
import { recordRotation, refreshJournal, rotatedPair, type TokenPair } from './refresh-journal.ts';
import { recordServerDate } from './server-clock.ts';

/**
 * The one place the client talks HTTP to the API (spec §7–8).
 * Success bodies are `{ data }` and resolve to `data`; failures throw `ApiError`.
 */

export class ApiError extends Error {
  readonly status: number;
  /** A code of the server's list (common/error-codes.ts) or of the web app's own; absent for an answer without a known one. */
  readonly code?: AnyErrorCode;
  readonly details?: unknown;

  constructor(message: string, status: number, extra: { code?: AnyErrorCode; details?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    if (extra.code !== undefined) this.code = extra.code;
    if (extra.details !== undefined) this.details = extra.details;
  }
}

export const NETWORK_ERROR_MESSAGE = CLIENT_ERRORS.NETWORK_ERROR.message;
export const DEFAULT_ERROR_MESSAGE = 'Request failed';
export const NO_REFRESH_TOKEN_MESSAGE = 'No refresh token available';
export const REFRESH_FAILED_MESSAGE = 'Failed to refresh token';
export const REFRESH_NETWORK_ERROR_MESSAGE = 'Network error during token refresh';
/** Name of the Web Lock that serialises refreshes across the tabs of one browser. */
export const REFRESH_LOCK_NAME = 'luxemotors-refresh';
const REFRESH_PATH = '/api/auth/refresh-token';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface GetOptions {
  query?: Query;
  signal?: AbortSignal;
}

export interface WriteOptions {
  signal?: AbortSignal;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, string>;
}

export const API_BASE_URL: string = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');

/** `{a: 'x', b: undefined, c: ''}` → `?a=x`; returns '' when nothing is left. */
export function buildQueryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export function buildUrl(path: string, query?: Query, base: string = API_BASE_URL): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  return `${base}${normalized}${buildQueryString(query)}`;
}

/** True for errors caused by aborting a request (e.g. a stale listing query). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error as { name: unknown }).name === 'AbortError'
  );
}

export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred';

/** The text to show for a failed call: the server's (or the network) message, else a generic one. */
export function errorMessage(error: unknown, fallback: string = UNEXPECTED_ERROR_MESSAGE): string {
  return error instanceof ApiError ? error.message : fallback;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestInitLite {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

async function send(
  method: Method,
  path: string,
  init: RequestInitLite,
  accessToken: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  // JSON content type whenever there is a body. (Fastify rejects an *empty* body that
  // claims to be JSON, e.g. on PUT /api/notifications/read-all, so no body → no header.)
  const hasBody = init.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;

  try {
    const sentAt = Date.now();
    const response = await fetch(buildUrl(path, init.query), {
      method,
      headers,
      body: hasBody ? JSON.stringify(init.body) : undefined,
      signal: init.signal,
    });
    // Every answer's Date header keeps the estimate of the server's clock honest (countdowns).
    recordServerDate(response.headers?.get('date'), sentAt);
    return response;
  } catch (error) {
    if (isAbortError(error) || init.signal?.aborted) throw error;
    throw networkError();
  }
}

function networkError(): ApiError {
  return new ApiError(NETWORK_ERROR_MESSAGE, 0, { code: ClientErrorCode.NETWORK_ERROR });
}

function pickString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

async function readResponse<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown = undefined;
  let parsed = true;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      parsed = false;
    }
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

  if (!response.ok) {
    // A code outside the list (a proxy's page, a newer server) is left out rather than trusted.
    const code = isErrorCode(record.code) ? record.code : undefined;
    const message = pickString(record.message) ?? pickString(record.error) ?? (code ? ERROR_CODES[code].message : DEFAULT_ERROR_MESSAGE);
    throw new ApiError(message, response.status, { code, details: record.details });
  }
  if (!parsed) throw new Error('The server sent a response that is not JSON');
  if (!text) return undefined as T; // 204 No Content and friends
  return record.data as T;
}

// ── Token refresh (spec §4, §7, §8) ──────────────────────────────────────────────
// Refresh tokens are rotated: each can be spent once, and presenting a spent one ends the
// whole session. So at most one refresh may run at a time — per tab (one shared promise)
// and across tabs (a Web Lock). Inside the lock, a token that another tab already exchanged
// is never presented again: that tab's result is adopted instead, read from the rotation
// journal (IndexedDB; see refresh-journal.ts for why localStorage alone is not enough) or
// from localStorage.

let refreshInFlight: Promise<string> | null = null;

function refreshError(message: string, status: number): ApiError {
  useSessionStore.getState().clearSession();
  void refreshJournal()?.clear().catch(() => undefined);
  return new ApiError(message, status, { code: ClientErrorCode.SESSION_EXPIRED });
}

/** Runs `task` under the cross-tab refresh lock when the browser has Web Locks. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks && typeof locks.request === 'function') {
    return locks.request(REFRESH_LOCK_NAME, task) as Promise<T>;
  }
  return task();
}

function adopt(pair: TokenPair): string {
  useSessionStore.getState().setSession({ accessToken: pair.accessToken, refreshToken: pair.refreshToken });
  return pair.accessToken;
}

async function performRefresh(): Promise<string> {
  const startedWith = useSessionStore.getState().refreshToken;
  if (!startedWith) throw refreshError(NO_REFRESH_TOKEN_MESSAGE, 401);

  return withRefreshLock(async () => {
    const latest = readLatestSession();
    if (!latest.refreshToken) throw refreshError(NO_REFRESH_TOKEN_MESSAGE, 401); // signed out elsewhere

    // Did another tab exchange our token while we waited for the lock? Then use its result.
    const journal = refreshJournal();
    const record = journal ? await journal.read().catch(() => null) : null;
    const rotated = rotatedPair(record, startedWith);
    if (rotated) return adopt(rotated);
    if (latest.refreshToken !== startedWith && latest.accessToken) {
      return adopt({ accessToken: latest.accessToken, refreshToken: latest.refreshToken });
    }
    const spending = latest.refreshToken;

    let response: Response;
    try {
      response = await fetch(buildUrl(REFRESH_PATH), {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken: spending }),
      });
    } catch {
      throw refreshError(REFRESH_NETWORK_ERROR_MESSAGE, 0);
    }

    let tokens: { accessToken?: unknown; refreshToken?: unknown } | undefined;
    try {
      tokens = response.ok ? await readResponse<typeof tokens>(response) : undefined;
    } catch {
      tokens = undefined;
    }
    if (typeof tokens?.accessToken !== 'string' || typeof tokens.refreshToken !== 'string') {
      throw refreshError(REFRESH_FAILED_MESSAGE, response.ok ? 500 : response.status);
    }
    const pair: TokenPair = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    // Journal first (committed before the lock is released, so the next holder sees it), then
    // this tab's session and localStorage.
    if (journal) await journal.write(recordRotation(record, spending, pair)).catch(() => undefined);
    return adopt(pair);
  });
}

/**
 * Exchanges the refresh token for a new pair and resolves to the new access token. Concurrent
 * callers share one refresh. Any failure clears the session and rejects with an `ApiError`
 * ('No refresh token available', 'Failed to refresh token' or 'Network error during token refresh').
 */
export function refreshAccessToken(): Promise<string> {
  refreshInFlight ??= performRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** Seconds since the epoch at which a JWT expires, or null when it cannot be read. */
export function accessTokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    const exp = (claims as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/**
 * An access token good for at least `minValiditySeconds` more, refreshing first when the held one
 * is missing or about to expire (e.g. before the socket client connects). Null when signed out.
 * Rejects like `refreshAccessToken` when a needed refresh fails.
 */
export async function ensureFreshAccessToken(minValiditySeconds = 30): Promise<string | null> {
  const { accessToken, refreshToken } = useSessionStore.getState();
  if (!refreshToken) return accessToken;
  if (accessToken) {
    const exp = accessTokenExpiry(accessToken);
    if (exp === null || exp - Date.now() / 1000 > minValiditySeconds) return accessToken;
  }
  return refreshAccessToken();
}

function mayRefresh(path: string, response: Response): boolean {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  return response.status === 401 && !normalized.startsWith('/api/auth/');
}

async function request<T>(method: Method, path: string, init: RequestInitLite = {}): Promise<T> {
  const usedToken = useSessionStore.getState().accessToken;
  const response = await send(method, path, init, usedToken);

  if (mayRefresh(path, response) && useSessionStore.getState().refreshToken) {
    const current = useSessionStore.getState().accessToken;
    // A refresh that finished while this call was out already gave us a newer token.
    const freshToken = current && current !== usedToken ? current : await refreshAccessToken();
    return readResponse<T>(await send(method, path, init, freshToken));
  }

  return readResponse<T>(response);
}

// ── File uploads with progress ───────────────────────────────────────────────────────────
// `fetch` cannot report how much of a request body has been sent, so uploads go through
// XMLHttpRequest: same base address, bearer token, error shapes and 401 refresh as `request`.

export interface UploadOptions {
  /** Called as the body goes out with the share sent so far (0..1); back to 0 when it is sent again. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, string>;
  /** Text fields sent with the file (before it, so a server reading the stream has them first). */
  fields?: Record<string, string>;
}

function abortError(): Error {
  return typeof DOMException === 'function'
    ? new DOMException('The upload was aborted', 'AbortError')
    : Object.assign(new Error('The upload was aborted'), { name: 'AbortError' });
}

function sendForm(path: string, form: FormData, accessToken: string | null, options: UploadOptions): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', buildUrl(path));
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    // No Content-Type: the browser sets multipart/form-data with its boundary.
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.upload.onprogress = (event) => {
      if (onProgress && event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      settle();
      const text = xhr.responseText;
      const noBody = xhr.status === 204 || xhr.status === 205 || xhr.status === 304 || text === '';
      try {
        resolve(new Response(noBody ? null : text, { status: xhr.status }));
      } catch {
        reject(networkError());
      }
    };
    xhr.onerror = () => {
      settle();
      reject(networkError());
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      settle();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
}

/**
 * POSTs one file as `multipart/form-data` (in form field `field`) and resolves to the `data` of
 * the answer, reporting upload progress. A token about to expire is refreshed first (so a large
 * body is not sent only to be refused); a 401 still refreshes and sends it once more.
 */
async function upload<T>(path: string, field: string, file: Blob, options: UploadOptions = {}): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append(field, file, file instanceof File ? file.name : 'upload');
  const usedToken = await ensureFreshAccessToken(60);
  const response = await sendForm(path, form, usedToken, options);

  if (mayRefresh(path, response) && useSessionStore.getState().refreshToken) {
    const current = useSessionStore.getState().accessToken;
    const freshToken = current && current !== usedToken ? current : await refreshAccessToken();
    options.onProgress?.(0);
    return readResponse<T>(await sendForm(path, form, freshToken, options));
  }
  return readResponse<T>(response);
}

// ── Downloads ────────────────────────────────────────────────────────────────────────────
// A file the API serves to signed-in callers only (a CSV export) cannot be a plain link: the
// browser would not send the bearer token. It is fetched here, with the token and its refresh,
// and handed over as a Blob the page offers for saving.

export interface Download {
  blob: Blob;
  /** From the answer's `Content-Disposition`, when it names one. */
  filename: string | null;
}

function filenameOf(disposition: string | null): string | null {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

async function download(path: string, options: GetOptions & { accept?: string } = {}): Promise<Download> {
  const init: RequestInitLite = { query: options.query, signal: options.signal, headers: { Accept: options.accept ?? '*/*' } };
  const usedToken = useSessionStore.getState().accessToken;
  let response = await send('GET', path, init, usedToken);
  if (mayRefresh(path, response) && useSessionStore.getState().refreshToken) {
    const current = useSessionStore.getState().accessToken;
    response = await send('GET', path, init, current && current !== usedToken ? current : await refreshAccessToken());
  }
  if (!response.ok) return readResponse<never>(response); // throws the answer's ApiError
  return { blob: await response.blob(), filename: filenameOf(response.headers.get('content-disposition')) };
}

export const api = {
  get: <T>(path: string, options: GetOptions = {}) =>
    request<T>('GET', path, { query: options.query, signal: options.signal }),
  post: <T>(path: string, body?: unknown, options: WriteOptions = {}) =>
    request<T>('POST', path, { body, signal: options.signal, headers: options.headers }),
  put: <T>(path: string, body?: unknown, options: WriteOptions = {}) =>
    request<T>('PUT', path, { body, signal: options.signal, headers: options.headers }),
  patch: <T>(path: string, body?: unknown, options: WriteOptions = {}) =>
    request<T>('PATCH', path, { body, signal: options.signal, headers: options.headers }),
  /** `options.body`: for the few deletions that name what goes in a body (a push subscription's endpoint). */
  delete: <T>(path: string, options: WriteOptions & { body?: unknown } = {}) =>
    request<T>('DELETE', path, { body: options.body, signal: options.signal, headers: options.headers }),
  upload,
  download,
};
