/**
 * Per-photo upload state while a listing is published: photos go up one at a time in the
 * order the seller chose; a failure keeps its server message and waits for Retry or Remove
 * while the others carry on. The server appends each photo to the gallery, so a retried photo
 * may land after later ones: `galleryOrder` says how to put the gallery back in the chosen order.
 */

export type UploadStatus = 'waiting' | 'uploading' | 'done' | 'failed';

export interface UploadState {
  status: UploadStatus;
  /** Share of the file sent, 0..1 (1 while the server processes it). */
  progress: number;
  /** The server's (or the network's) message for a failed upload. */
  error: string | null;
  /** Where the server put the photo in the gallery (0 is the first). */
  serverIndex: number | null;
}

export type UploadQueue = Readonly<Record<string, UploadState>>;

const WAITING: UploadState = { status: 'waiting', progress: 0, error: null, serverIndex: null };

export function newQueue(ids: readonly string[]): UploadQueue {
  return Object.fromEntries(ids.map((id) => [id, WAITING]));
}

function update(queue: UploadQueue, id: string, change: (state: UploadState) => UploadState): UploadQueue {
  const state = queue[id];
  if (!state) return queue;
  const next = change(state);
  return next === state ? queue : { ...queue, [id]: next };
}

export function markUploading(queue: UploadQueue, id: string): UploadQueue {
  return update(queue, id, () => ({ status: 'uploading', progress: 0, error: null, serverIndex: null }));
}

/** Progress only ever moves forward during one attempt, and only while uploading. */
export function markProgress(queue: UploadQueue, id: string, fraction: number): UploadQueue {
  const clamped = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  return update(queue, id, (s) => (s.status !== 'uploading' || s.progress === clamped ? s : { ...s, progress: clamped }));
}

export function markDone(queue: UploadQueue, id: string, serverIndex: number): UploadQueue {
  return update(queue, id, () => ({ status: 'done', progress: 1, error: null, serverIndex }));
}

export function markFailed(queue: UploadQueue, id: string, message: string): UploadQueue {
  return update(queue, id, (s) => ({ ...s, status: 'failed', error: message, serverIndex: null }));
}

/** A failed photo goes back in line. */
export function markRetry(queue: UploadQueue, id: string): UploadQueue {
  return update(queue, id, (s) => (s.status === 'failed' ? WAITING : s));
}

export function dropUpload(queue: UploadQueue, id: string): UploadQueue {
  if (!(id in queue)) return queue;
  const next = { ...queue };
  delete next[id];
  return next;
}

/** The first photo in the chosen order that waits to be sent. */
export function nextWaiting(order: readonly string[], queue: UploadQueue): string | null {
  return order.find((id) => queue[id]?.status === 'waiting') ?? null;
}

export interface QueueSummary {
  total: number;
  done: number;
  failed: number;
  /** Sent or being sent; nothing left to do but wait. */
  active: number;
  /** Every photo is on the server. */
  complete: boolean;
  /** Overall share sent, 0..1. */
  progress: number;
}

export function summarize(order: readonly string[], queue: UploadQueue): QueueSummary {
  let done = 0;
  let failed = 0;
  let active = 0;
  let sent = 0;
  for (const id of order) {
    const state = queue[id];
    if (!state) continue;
    if (state.status === 'done') done += 1;
    else if (state.status === 'failed') failed += 1;
    else active += 1;
    sent += state.status === 'done' ? 1 : state.status === 'uploading' ? state.progress : 0;
  }
  const total = order.length;
  return { total, done, failed, active, complete: done === total, progress: total === 0 ? 1 : sent / total };
}

/**
 * The `PUT /api/cars/:id/images/order` body that puts the uploaded photos in the chosen order,
 * or null when the server's gallery already is in that order (or not every photo is up yet).
 */
export function galleryOrder(order: readonly string[], queue: UploadQueue): number[] | null {
  const positions = order.map((id) => queue[id]?.serverIndex ?? null);
  if (positions.some((p) => p === null)) return null;
  const permutation = positions as number[];
  return permutation.every((p, i) => p === i) ? null : permutation;
}
