import { describe, expect, it } from 'vitest';
import {
  dropUpload,
  galleryOrder,
  markDone,
  markFailed,
  markProgress,
  markRetry,
  markUploading,
  newQueue,
  nextWaiting,
  summarize,
} from './upload-queue.ts';

const order = ['a', 'b', 'c'];

describe('upload queue', () => {
  it('sends photos one at a time in the chosen order', () => {
    let q = newQueue(order);
    expect(nextWaiting(order, q)).toBe('a');
    q = markUploading(q, 'a');
    expect(nextWaiting(order, q)).toBe('b');
    expect(nextWaiting(['c', 'b', 'a'], q)).toBe('c');
  });

  it('tracks progress while uploading only, never beyond 0..1', () => {
    let q = markUploading(newQueue(order), 'a');
    q = markProgress(q, 'a', 0.4);
    expect(q.a).toMatchObject({ status: 'uploading', progress: 0.4 });
    expect(markProgress(q, 'a', 7).a!.progress).toBe(1);
    expect(markProgress(q, 'a', Number.NaN).a!.progress).toBe(0);
    expect(markProgress(q, 'b', 0.5)).toBe(q); // b is waiting: late events change nothing
    expect(markProgress(q, 'zzz', 0.5)).toBe(q);
  });

  it('keeps the message of a failure, and Retry puts the photo back in line', () => {
    let q = markUploading(newQueue(order), 'a');
    q = markFailed(q, 'a', 'Photos must be JPEG, PNG or WebP images');
    expect(q.a).toMatchObject({ status: 'failed', error: 'Photos must be JPEG, PNG or WebP images' });
    expect(nextWaiting(order, q)).toBe('b');
    q = markRetry(q, 'a');
    expect(q.a).toEqual({ status: 'waiting', progress: 0, error: null, serverIndex: null });
    expect(nextWaiting(order, q)).toBe('a');
    const done = markDone(q, 'b', 0);
    expect(markRetry(done, 'b')).toBe(done); // only failures are retried
  });

  it('summarises: done, failed, in progress, overall share, complete', () => {
    let q = newQueue(order);
    expect(summarize(order, q)).toEqual({ total: 3, done: 0, failed: 0, active: 3, complete: false, progress: 0 });
    q = markDone(markUploading(q, 'a'), 'a', 0);
    q = markProgress(markUploading(q, 'b'), 'b', 0.5);
    expect(summarize(order, q)).toMatchObject({ done: 1, active: 2, progress: 0.5 });
    q = markFailed(q, 'b', 'nope');
    q = markDone(markUploading(q, 'c'), 'c', 1);
    expect(summarize(order, q)).toMatchObject({ done: 2, failed: 1, active: 0, complete: false });
    // Removing the failed photo leaves a complete set.
    const rest = order.filter((id) => id !== 'b');
    expect(summarize(rest, dropUpload(q, 'b'))).toMatchObject({ total: 2, done: 2, complete: true, progress: 1 });
    expect(summarize([], {})).toMatchObject({ total: 0, complete: true, progress: 1 });
  });

  it('says how to put the gallery in the chosen order when a retried photo landed last', () => {
    // a fails, b and c go up (positions 0 and 1), then a is retried and lands at 2.
    let q = newQueue(order);
    q = markFailed(markUploading(q, 'a'), 'a', 'network');
    q = markDone(markUploading(q, 'b'), 'b', 0);
    q = markDone(markUploading(q, 'c'), 'c', 1);
    expect(galleryOrder(order, q)).toBeNull(); // not every photo is up yet
    q = markDone(markUploading(markRetry(q, 'a'), 'a'), 'a', 2);
    expect(galleryOrder(order, q)).toEqual([2, 0, 1]);
    expect(galleryOrder(['b', 'c', 'a'], q)).toBeNull(); // already in that order
  });
});
