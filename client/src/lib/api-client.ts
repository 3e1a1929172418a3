import { useSessionStore } from '../features/auth/stores/session-store.ts';

/**
 * The one place the client talks HTTP to the API (spec §7–8).
 * Success bodies are `{ data }` and resolve to `data`; failures throw `ApiError`.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly details?: unknown;

  constructor(message: string, status: number, extra: { code?: string; details?: unknown } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    if (extra.code !== undefined) this.code = extra.code;
    if (extra.details !== undefined) this.details = extra.details;
  }
}

export const NETWORK_ERROR_MESSAGE = 'Network error occurred';
export const DEFAULT_ERROR_MESSAGE = 'Request failed';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface GetOptions {
  query?: Query;
  signal?: AbortSignal;
}

export interface WriteOptions {
  signal?: AbortSignal;
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

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestInitLite {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

async function send(method: Method, path: string, init: RequestInitLite): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // JSON content type whenever there is a body. (Fastify rejects an *empty* body that
  // claims to be JSON, e.g. on PUT /api/notifications/read-all, so no body → no header.)
  const hasBody = init.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  const { accessToken } = useSessionStore.getState();
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;

  try {
    return await fetch(buildUrl(path, init.query), {
      method,
      headers,
      body: hasBody ? JSON.stringify(init.body) : undefined,
      signal: init.signal,
    });
  } catch (error) {
    if (isAbortError(error) || init.signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }
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
    const message = pickString(record.message) ?? pickString(record.error) ?? DEFAULT_ERROR_MESSAGE;
    throw new ApiError(message, response.status, {
      code: pickString(record.code),
      details: record.details,
    });
  }
  if (!parsed) throw new Error('The server sent a response that is not JSON');
  if (!text) return undefined as T; // 204 No Content and friends
  return record.data as T;
}

async function request<T>(method: Method, path: string, init: RequestInitLite = {}): Promise<T> {
  const response = await send(method, path, init);

  // ── Token refresh hook (spec §7) ──────────────────────────────────────────────
  // On a 401 for a non-auth path while a refresh token is held: call
  // POST /api/auth/refresh-token, store the new tokens, and retry `send(...)` once.
  // Any refresh failure clears the session. Not implemented yet.

  return readResponse<T>(response);
}

export const api = {
  get: <T>(path: string, options: GetOptions = {}) =>
    request<T>('GET', path, { query: options.query, signal: options.signal }),
  post: <T>(path: string, body?: unknown, options: WriteOptions = {}) =>
    request<T>('POST', path, { body, signal: options.signal }),
  put: <T>(path: string, body?: unknown, options: WriteOptions = {}) =>
    request<T>('PUT', path, { body, signal: options.signal }),
  delete: <T>(path: string, options: WriteOptions = {}) =>
    request<T>('DELETE', path, { signal: options.signal }),
};
