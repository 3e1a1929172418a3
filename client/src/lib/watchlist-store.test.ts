import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from './session-store.ts';
import { sampleUser } from './user-fixture.ts';
import { useWatchlistStore } from './watchlist-store.ts';

const user = (id: number) => sampleUser({ id, name: `User ${id}`, email: `u${id}@example.com` });

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('watchlist store', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.getState().setSession({ accessToken: 'tok', refreshToken: null, user: user(1) });
  });

  afterEach(() => {
    useSessionStore.getState().clearSession();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('loads the ids once per signed-in user, sharing one request', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: { cars: [{ id: 3 }, { id: 7 }] } }));
    await Promise.all([useWatchlistStore.getState().ensureLoaded(), useWatchlistStore.getState().ensureLoaded()]);
    await useWatchlistStore.getState().ensureLoaded();
    expect(calls()).toEqual(['GET /api/watchlist']);
    expect([...useWatchlistStore.getState().ids]).toEqual([3, 7]);
    expect(useWatchlistStore.getState().status).toBe('ready');
  });

  it('starts over when the user signs out', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: { cars: [{ id: 3 }] } }));
    await useWatchlistStore.getState().ensureLoaded();
    useSessionStore.getState().clearSession();
    expect(useWatchlistStore.getState().ids.size).toBe(0);
    expect(useWatchlistStore.getState().status).toBe('idle');
  });

  it('toggles with POST and DELETE', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: { cars: [] } }));
    fetchMock.mockResolvedValueOnce(json(201, { data: { carId: 5, watching: true } }));
    await expect(useWatchlistStore.getState().toggle(5)).resolves.toBe(true);
    expect(useWatchlistStore.getState().ids.has(5)).toBe(true);
    fetchMock.mockResolvedValueOnce(json(200, { data: { carId: 5, watching: false } }));
    await expect(useWatchlistStore.getState().toggle(5)).resolves.toBe(false);
    expect(useWatchlistStore.getState().ids.has(5)).toBe(false);
    expect(calls()).toEqual(['GET /api/watchlist', 'POST /api/watchlist', 'DELETE /api/watchlist/5']);
    expect(JSON.parse(String(fetchMock.mock.calls[1]![1]!.body))).toEqual({ carId: 5 });
  });

  it('shows a change at once and rolls it back when the server refuses', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: { cars: [] } }));
    await useWatchlistStore.getState().ensureLoaded();
    let answer!: (r: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const pending = useWatchlistStore.getState().toggle(9);
    await vi.waitFor(() => expect(useWatchlistStore.getState().ids.has(9)).toBe(true));
    expect(useWatchlistStore.getState().pending.has(9)).toBe(true);
    answer(json(404, { error: 'Car not found', code: 'NOT_FOUND' }));
    await expect(pending).resolves.toBe(false);
    expect(useWatchlistStore.getState().ids.has(9)).toBe(false);
    expect(useWatchlistStore.getState().pending.has(9)).toBe(false);
    expect(useWatchlistStore.getState().failedId).toBe(9);
  });

  it('does nothing for a visitor', async () => {
    useSessionStore.getState().clearSession();
    await useWatchlistStore.getState().ensureLoaded();
    await expect(useWatchlistStore.getState().toggle(1)).resolves.toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
