import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, buildQueryString, buildUrl, isAbortError } from './api-client.ts';
import { useSessionStore } from '../features/auth/stores/session-store.ts';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('buildQueryString', () => {
  it('drops undefined, null and empty-string values', () => {
    expect(buildQueryString({ a: 'x', b: undefined, c: '', d: null, e: 0, f: false })).toBe(
      '?a=x&e=0&f=false',
    );
  });

  it('returns an empty string when nothing is left', () => {
    expect(buildQueryString()).toBe('');
    expect(buildQueryString({ search: '' })).toBe('');
  });

  it('encodes values', () => {
    expect(buildQueryString({ search: 'Aston Martin & co' })).toBe('?search=Aston+Martin+%26+co');
  });
});

describe('buildUrl', () => {
  it('joins base, path and query', () => {
    expect(buildUrl('/api/cars', { page: 2 }, 'https://api.example.com')).toBe(
      'https://api.example.com/api/cars?page=2',
    );
    expect(buildUrl('api/cars', undefined, '')).toBe('/api/cars');
  });
});

describe('api', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.getState().clearSession();
  });

  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('returns the data field of a successful response', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { data: { cars: [], total: 0 } }));
    await expect(api.get('/api/cars')).resolves.toEqual({ cars: [], total: 0 });
  });

  it('sends the bearer token when the session holds one', async () => {
    useSessionStore.getState().setSession({ accessToken: 'tok-123' });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { data: null }));
    await api.get('/api/users/profile');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-123');
  });

  it('sends JSON with a JSON content type', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(201, { data: { ok: true } }));
    await api.post('/api/bids', { carId: 1, amount: 5 });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init?.body).toBe('{"carId":1,"amount":5}');
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('uses the message field, then the error field, then a default', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { message: 'From message', error: 'From error' }));
    await expect(api.get('/x')).rejects.toMatchObject({ message: 'From message', status: 400 });

    fetchMock.mockResolvedValueOnce(
      jsonResponse(403, { error: 'Email not verified', code: 'EMAIL_NOT_VERIFIED', details: [1] }),
    );
    const err = await api.get('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      message: 'Email not verified',
      status: 403,
      code: 'EMAIL_NOT_VERIFIED',
      details: [1],
    });

    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/x')).rejects.toMatchObject({ message: 'Request failed', status: 502 });
  });

  it('maps a network failure to status 0 and "Network error occurred"', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(api.get('/x')).rejects.toMatchObject({
      name: 'ApiError',
      message: 'Network error occurred',
      status: 0,
    });
  });

  it('lets an abort through untouched', async () => {
    const controller = new AbortController();
    controller.abort();
    fetchMock.mockRejectedValueOnce(new DOMException('aborted', 'AbortError'));
    const err = await api.get('/x', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isAbortError(err)).toBe(true);
    expect(err).not.toBeInstanceOf(ApiError);
  });
});
