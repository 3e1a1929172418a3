import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { RetrySafeSender, isAnswered } from './retry-key.ts';

const answered = () => new ApiError('Too low', 409, { code: 'BID_TOO_LOW' });
const unanswered = () => new TypeError('Failed to fetch');

describe('RetrySafeSender', () => {
  it('reuses the key only to retry the same request after it went unanswered', async () => {
    const sender = new RetrySafeSender<number>();
    const keys: string[] = [];
    const fail = (error: Error) => (key: string) => {
      keys.push(key);
      return Promise.reject(error);
    };
    await expect(sender.send(100, fail(unanswered()))).rejects.toThrow('Failed to fetch');
    await expect(sender.send(100, fail(answered()))).rejects.toThrow('Too low');
    await expect(sender.send(100, fail(unanswered()))).rejects.toThrow();
    await expect(sender.send(200, fail(unanswered()))).rejects.toThrow();
    expect(await sender.send(200, async (key) => (keys.push(key), 'ok'))).toBe('ok');
    await sender.send(200, async (key) => keys.push(key));
    // Retry after no answer: same key; after an answer, or for another request: a new one.
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(keys[3]).not.toBe(keys[2]);
    expect(keys[4]).toBe(keys[3]);
    expect(keys[5]).not.toBe(keys[4]);
  });

  it('is busy while a request is on its way', async () => {
    const sender = new RetrySafeSender<string>();
    let finish!: () => void;
    const sent = sender.send('a', () => new Promise<void>((resolve) => (finish = resolve)));
    expect(sender.busy).toBe(true);
    finish();
    await sent;
    expect(sender.busy).toBe(false);
  });

  it('counts any status as an answer, but not a network failure (status 0) or a thrown TypeError', () => {
    expect(isAnswered(answered())).toBe(true);
    expect(isAnswered(new ApiError('offline', 0))).toBe(false);
    expect(isAnswered(unanswered())).toBe(false);
  });
});
