import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client.ts';
import { useSessionStore } from './session-store.ts';

/** A stand-in XMLHttpRequest: records each request and lets the test answer it. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/** Resolves once `count` requests have gone out (the helper may await a token check first). */
async function requests(count: number): Promise<FakeXhr[]> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThanOrEqual(count));
  return FakeXhr.sent;
}

describe('api.upload', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.getState().clearSession();
  });

  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    useSessionStore.getState().clearSession();
  });

  it('posts the file as multipart with the bearer token, reports progress and resolves to data', async () => {
    useSessionStore.getState().setSession({ accessToken: 'tok-1' });
    const progress: number[] = [];
    const file = new File(['jpeg bytes'], 'front.jpg', { type: 'image/jpeg' });
    const done = api.upload<{ images: string[] }>('/api/cars/7/images', 'file', file, { onProgress: (f) => progress.push(f) });
    const [xhr] = await requests(1);
    expect(xhr!.method).toBe('POST');
    expect(xhr!.url).toBe('/api/cars/7/images');
    expect(xhr!.headers.Authorization).toBe('Bearer tok-1');
    expect(xhr!.headers['Content-Type']).toBeUndefined(); // the browser adds the multipart boundary
    expect((xhr!.body as FormData).get('file')).toBeInstanceOf(File);
    xhr!.progress(25, 100);
    xhr!.progress(100, 100);
    xhr!.answer(201, { data: { images: ['/media/photos/1.webp'] } });
    await expect(done).resolves.toEqual({ images: ['/media/photos/1.webp'] });
    expect(progress).toEqual([0.25, 1]);
  });

  it('sends the text fields before the file, so a server reading the stream meets them first', async () => {
    const file = new File(['%PDF-1.7'], 'invoice.pdf', { type: 'application/pdf' });
    const done = api.upload('/api/cars/7/documents', 'file', file, { fields: { kind: 'service', title: 'Annual service' } });
    const [xhr] = await requests(1);
    const form = xhr!.body as FormData;
    expect([...form.keys()]).toEqual(['kind', 'title', 'file']);
    expect(form.get('title')).toBe('Annual service');
    xhr!.answer(201, { data: { id: 1 } });
    await expect(done).resolves.toEqual({ id: 1 });
  });

  it("rejects with the server's sentence and code", async () => {
    const done = api.upload('/api/cars/7/images', 'file', new File(['text'], 'notes.jpg'));
    const [xhr] = await requests(1);
    xhr!.answer(415, { error: 'Photos must be JPEG, PNG or WebP images', code: 'UNSUPPORTED_MEDIA_TYPE' });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Photos must be JPEG, PNG or WebP images', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('maps a failed connection to "Network error occurred"', async () => {
    const done = api.upload('/api/cars/7/images', 'file', new File(['x'], 'a.jpg'));
    const [xhr] = await requests(1);
    xhr!.onerror?.();
    await expect(done).rejects.toMatchObject({ message: 'Network error occurred', status: 0 });
  });

  it('refreshes the session on a 401 and sends the file once more with the new token, progress from 0', async () => {
    useSessionStore.getState().setSession({ accessToken: 'old', refreshToken: 'refresh-1' });
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ data: { accessToken: 'new', refreshToken: 'refresh-2' } }), { status: 200 }),
    );
    const progress: number[] = [];
    const done = api.upload('/api/cars/7/images', 'file', new File(['x'], 'a.jpg'), { onProgress: (f) => progress.push(f) });
    const [first] = await requests(1);
    expect(first!.headers.Authorization).toBe('Bearer old');
    first!.progress(1, 1);
    first!.answer(401, { error: 'Unauthorized', code: 'UNAUTHORIZED' });
    const [, second] = await requests(2);
    expect(second!.headers.Authorization).toBe('Bearer new');
    second!.answer(201, { data: { images: ['x'] } });
    await expect(done).resolves.toEqual({ images: ['x'] });
    expect(progress).toEqual([1, 0]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useSessionStore.getState().refreshToken).toBe('refresh-2');
  });

  it('aborts when its signal does', async () => {
    const controller = new AbortController();
    const done = api.upload('/api/cars/7/images', 'file', new File(['x'], 'a.jpg'), { signal: controller.signal });
    await requests(1);
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
