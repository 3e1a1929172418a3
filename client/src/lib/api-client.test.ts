import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  accessTokenExpiry,
  api,
  buildQueryString,
  buildUrl,
  ensureFreshAccessToken,
  isAbortError,
  refreshAccessToken,
} from './api-client.ts';
import { setRefreshJournal, type RefreshJournal, type RotationRecord } from './refresh-journal.ts';
import { useSessionStore } from './session-store.ts';
import { sampleUser } from './user-fixture.ts';

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

  it("shows a listed code's sentence when the answer has none, and drops a code outside the list", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(409, { code: 'LISTING_LOCKED' }));
    await expect(api.get('/x')).rejects.toMatchObject({ message: 'This listing can no longer be changed', status: 409, code: 'LISTING_LOCKED' });

    fetchMock.mockResolvedValueOnce(jsonResponse(409, { error: 'Something new', code: 'SOMETHING_NEW' }));
    const unknown = (await api.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(unknown).toMatchObject({ message: 'Something new', status: 409 });
    expect(unknown.code).toBeUndefined();
  });

  it('maps a network failure to status 0 and "Network error occurred"', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(api.get('/x')).rejects.toMatchObject({
      name: 'ApiError',
      message: 'Network error occurred',
      status: 0,
      code: 'NETWORK_ERROR',
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

// ── Token refresh ───────────────────────────────────────────────────────────────

/** A minimal in-memory Storage, so the session store persists as it does in a browser. */
class MemoryStorage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

const USER = sampleUser();

function jwt(exp: number): string {
  const b64 = (value: unknown) =>
    Buffer.from(JSON.stringify(value)).toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '7', exp })}.signature`;
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

function authOf(init: Parameters<typeof fetch>[1]): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.Authorization;
}

describe('token refresh', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let storage: MemoryStorage;

  const refreshCalls = () => fetchMock.mock.calls.filter(([input]) => urlOf(input).endsWith('/api/auth/refresh-token'));
  const profileCalls = () => fetchMock.mock.calls.filter(([input]) => urlOf(input).endsWith('/api/users/profile'));

  /** Profile answers 200 only to `Bearer new-access`; refresh answers with `refreshAnswer`. */
  function routeFetch(refreshAnswer: () => Promise<Response>) {
    fetchMock.mockImplementation(async (input, init) => {
      const url = urlOf(input);
      if (url.endsWith('/api/auth/refresh-token')) return refreshAnswer();
      if (url.endsWith('/api/auth/login')) return jsonResponse(401, { error: 'Invalid email or password' });
      return authOf(init) === 'Bearer new-access'
        ? jsonResponse(200, { data: USER })
        : jsonResponse(401, { error: 'Authentication required', code: 'UNAUTHORIZED' });
    });
  }

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('window', { localStorage: storage });
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.getState().setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', user: USER });
  });

  afterEach(() => {
    fetchMock.mockReset();
    useSessionStore.getState().clearSession();
    vi.unstubAllGlobals();
  });

  it('refreshes once for many concurrent 401s and retries each call once with the new token', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    routeFetch(async () => {
      await gate; // keep the refresh in flight until every call has failed
      return jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } });
    });

    const calls = Array.from({ length: 5 }, () => api.get('/api/users/profile'));
    await vi.waitFor(() => expect(profileCalls()).toHaveLength(5));
    release();

    await expect(Promise.all(calls)).resolves.toEqual(Array(5).fill(USER));
    expect(refreshCalls()).toHaveLength(1);
    expect(JSON.parse(String(refreshCalls()[0]?.[1]?.body))).toEqual({ refreshToken: 'old-refresh' });
    expect(profileCalls()).toHaveLength(10); // each original call, then exactly one retry each
    expect(profileCalls().slice(5).map(([, init]) => authOf(init))).toEqual(Array(5).fill('Bearer new-access'));
    expect(useSessionStore.getState()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh', isAuthenticated: true });
    expect(storage.getItem('luxemotors.refreshToken')).toBe('new-refresh');
    expect(storage.getItem('luxemotors.accessToken')).toBe('new-access');
  });

  it('retries with a token refreshed meanwhile instead of spending the refresh token again', async () => {
    routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));
    await api.get('/api/users/profile');
    expect(refreshCalls()).toHaveLength(1);

    // A call that went out with the old token and came back 401 after the refresh finished.
    fetchMock.mockImplementationOnce(async () => jsonResponse(401, { error: 'expired' }));
    useSessionStore.getState().setSession({ accessToken: 'old-access' });
    const late = api.get('/api/users/profile');
    useSessionStore.getState().setSession({ accessToken: 'new-access' });
    await expect(late).resolves.toEqual(USER);
    expect(refreshCalls()).toHaveLength(1);
  });

  it('retries only once: a second 401 is returned to the caller', async () => {
    routeFetch(async () => jsonResponse(200, { data: { accessToken: 'still-bad', refreshToken: 'new-refresh' } }));
    await expect(api.get('/api/users/profile')).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls()).toHaveLength(1);
    expect(profileCalls()).toHaveLength(2);
  });

  it('clears the session when the refresh is refused, and every waiting call fails with the refresh error', async () => {
    routeFetch(async () => jsonResponse(401, { error: 'Invalid refresh token', code: 'UNAUTHORIZED' }));
    const results = await Promise.allSettled([api.get('/api/users/profile'), api.put('/api/users/profile', { name: 'x' })]);
    for (const result of results) {
      expect(result).toMatchObject({ status: 'rejected', reason: { name: 'ApiError', message: 'Failed to refresh token' } });
    }
    expect(refreshCalls()).toHaveLength(1);
    expect(profileCalls()).toHaveLength(2); // no retries
    expect(useSessionStore.getState()).toMatchObject({ accessToken: null, refreshToken: null, user: null, isAuthenticated: false });
    expect(storage.getItem('luxemotors.refreshToken')).toBeNull();
    expect(storage.getItem('luxemotors.user')).toBeNull();
  });

  it('treats an unreadable refresh answer as a failure', async () => {
    routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access' } }));
    await expect(api.get('/api/users/profile')).rejects.toMatchObject({ message: 'Failed to refresh token' });
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it('reports a network failure during the refresh and clears the session', async () => {
    routeFetch(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(api.get('/api/users/profile')).rejects.toMatchObject({
      message: 'Network error during token refresh',
      status: 0,
    });
    expect(useSessionStore.getState().refreshToken).toBeNull();
  });

  it('does not refresh without a refresh token, or for /api/auth/ paths', async () => {
    routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));
    await expect(api.post('/api/auth/login', { email: 'a@b.c', password: 'x' })).rejects.toMatchObject({
      status: 401,
      message: 'Invalid email or password',
    });
    expect(refreshCalls()).toHaveLength(0);

    useSessionStore.getState().setSession({ refreshToken: null });
    await expect(api.get('/api/users/profile')).rejects.toMatchObject({ status: 401, message: 'Authentication required' });
    expect(refreshCalls()).toHaveLength(0);
  });

  it('refreshAccessToken without a refresh token rejects with "No refresh token available" and signs out', async () => {
    useSessionStore.getState().setSession({ refreshToken: null });
    await expect(refreshAccessToken()).rejects.toMatchObject({ message: 'No refresh token available' });
    expect(useSessionStore.getState().user).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  describe('across tabs (Web Locks)', () => {
    it('runs the refresh inside the luxemotors-refresh lock', async () => {
      const request = vi.fn((_name: string, task: () => Promise<unknown>) => task());
      vi.stubGlobal('navigator', { locks: { request } });
      routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));
      await expect(api.get('/api/users/profile')).resolves.toEqual(USER);
      expect(request).toHaveBeenCalledTimes(1);
      expect(request.mock.calls[0]?.[0]).toBe('luxemotors-refresh');
    });

    it('adopts the tokens another tab stored while this tab waited for the lock', async () => {
      const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
        // The other tab held the lock and rotated the pair; its storage write lands first.
        storage.setItem('luxemotors.accessToken', 'new-access');
        storage.setItem('luxemotors.refreshToken', 'new-refresh');
        return task();
      });
      vi.stubGlobal('navigator', { locks: { request } });
      routeFetch(async () => jsonResponse(401, { error: 'Refresh token reused' }));

      await expect(api.get('/api/users/profile')).resolves.toEqual(USER);
      expect(refreshCalls()).toHaveLength(0); // the spent token was never presented
      expect(useSessionStore.getState()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    });

    describe('with the rotation journal (IndexedDB in browsers)', () => {
      let record: RotationRecord | null;
      const memoryJournal: RefreshJournal = {
        read: async () => record,
        write: async (next) => {
          record = next;
        },
        clear: async () => {
          record = null;
        },
      };

      beforeEach(() => {
        record = null;
        setRefreshJournal(memoryJournal);
      });
      afterEach(() => setRefreshJournal(undefined));

      it('adopts a rotation another tab journaled even when this tab still sees the old token in localStorage', async () => {
        // Chromium syncs localStorage between tab processes lazily: storage here is stale.
        record = { accessToken: 'new-access', refreshToken: 'new-refresh', spent: ['old-refresh'] };
        const request = vi.fn((_name: string, task: () => Promise<unknown>) => task());
        vi.stubGlobal('navigator', { locks: { request } });
        routeFetch(async () => jsonResponse(401, { error: 'Refresh token reused' }));

        await expect(api.get('/api/users/profile')).resolves.toEqual(USER);
        expect(refreshCalls()).toHaveLength(0);
        expect(useSessionStore.getState()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
      });

      it('journals each rotation of the session before releasing the lock', async () => {
        let journaledInsideLock: RotationRecord | null = null;
        const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
          const result = await task();
          journaledInsideLock = record;
          return result;
        });
        vi.stubGlobal('navigator', { locks: { request } });
        routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));

        await api.get('/api/users/profile');
        expect(journaledInsideLock).toEqual({ accessToken: 'new-access', refreshToken: 'new-refresh', spent: ['old-refresh'] });
      });

      it('clears the journal when the refresh fails', async () => {
        record = { accessToken: 'a', refreshToken: 'old-refresh', spent: ['older'] };
        routeFetch(async () => jsonResponse(401, { error: 'Invalid refresh token' }));
        await expect(api.get('/api/users/profile')).rejects.toMatchObject({ message: 'Failed to refresh token' });
        await vi.waitFor(() => expect(record).toBeNull());
      });
    });

    it('signs out when another tab signed out while this tab waited', async () => {
      const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
        storage.clear();
        return task();
      });
      vi.stubGlobal('navigator', { locks: { request } });
      routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));
      await expect(api.get('/api/users/profile')).rejects.toMatchObject({ message: 'No refresh token available' });
      expect(refreshCalls()).toHaveLength(0);
      expect(useSessionStore.getState().isAuthenticated).toBe(false);
    });
  });

  describe('ensureFreshAccessToken', () => {
    it('returns a token that is still valid without calling the server', async () => {
      const token = jwt(Math.floor(Date.now() / 1000) + 600);
      useSessionStore.getState().setSession({ accessToken: token });
      await expect(ensureFreshAccessToken()).resolves.toBe(token);
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('refreshes a token that is about to expire', async () => {
      useSessionStore.getState().setSession({ accessToken: jwt(Math.floor(Date.now() / 1000) + 10) });
      routeFetch(async () => jsonResponse(200, { data: { accessToken: 'new-access', refreshToken: 'new-refresh' } }));
      await expect(ensureFreshAccessToken()).resolves.toBe('new-access');
      expect(refreshCalls()).toHaveLength(1);
    });

    it('returns null when signed out', async () => {
      useSessionStore.getState().clearSession();
      await expect(ensureFreshAccessToken()).resolves.toBeNull();
    });
  });

  it('accessTokenExpiry reads exp from a JWT and gives null for anything else', () => {
    expect(accessTokenExpiry(jwt(1_900_000_000))).toBe(1_900_000_000);
    expect(accessTokenExpiry('not-a-jwt')).toBeNull();
    expect(accessTokenExpiry('a.%%%.c')).toBeNull();
  });
});
