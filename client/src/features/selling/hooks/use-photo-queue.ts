import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isAbortError } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { uploadPhoto, type Gallery } from '../api/selling-api.ts';
import { moveItem, sortPickedFiles } from '../lib/photo-list.ts';
import {
  dropUpload,
  markDone,
  markFailed,
  markProgress,
  markRetry,
  markUploading,
  newQueue,
  nextWaiting,
  summarize,
  type QueueSummary,
  type UploadQueue,
} from '../lib/upload-queue.ts';

/** A photo picked from the seller's disk, with a local preview (an object URL). */
export interface LocalPhoto {
  id: string;
  file: File;
  url: string;
}

export const UPLOAD_FAILED_MESSAGE = 'The photo could not be uploaded';

export interface PhotoQueueEvents {
  /** One photo is on the server; `gallery` is the gallery after it. */
  onUploaded?: (id: string, gallery: Gallery) => void;
  /** Nothing waits or is being sent any more (every photo is up, or some failed). */
  onIdle?: (summary: QueueSummary) => void;
}

/**
 * The photos picked for a listing and their uploads: previews as object URLs (revoked when a
 * photo is removed, uploaded and dropped, or the screen goes away), the chosen order, and once
 * `start(carId)` is called, uploads one at a time in that order with progress, each failure
 * keeping the server's message until Retry or Remove.
 */
export function usePhotoQueue(events: PhotoQueueEvents = {}) {
  const [photos, setPhotosState] = useState<readonly LocalPhoto[]>([]);
  const [queue, setQueueState] = useState<UploadQueue>({});
  const photosRef = useRef<readonly LocalPhoto[]>([]);
  const queueRef = useRef<UploadQueue>({});
  const carIdRef = useRef<number | null>(null);
  const running = useRef(false);
  const controller = useRef<AbortController | null>(null);
  const eventsRef = useRef(events);

  useEffect(() => {
    eventsRef.current = events;
  });

  const setPhotos = useCallback((next: readonly LocalPhoto[]) => {
    photosRef.current = next;
    setPhotosState(next);
  }, []);
  const setQueue = useCallback((next: UploadQueue) => {
    queueRef.current = next;
    setQueueState(next);
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    controller.current = abort;
    return () => {
      abort.abort();
      for (const photo of photosRef.current) URL.revokeObjectURL(photo.url);
    };
  }, []);

  const summaryNow = useCallback(
    () => summarize(photosRef.current.map((p) => p.id), queueRef.current),
    [],
  );

  const pump = useCallback(async () => {
    const carId = carIdRef.current;
    if (running.current || carId === null) return;
    running.current = true;
    try {
      for (;;) {
        const signal = controller.current?.signal;
        if (!signal || signal.aborted) return;
        const id = nextWaiting(
          photosRef.current.map((p) => p.id),
          queueRef.current,
        );
        const photo = id === null ? undefined : photosRef.current.find((p) => p.id === id);
        if (id === null || !photo) break;
        setQueue(markUploading(queueRef.current, id));
        try {
          const gallery = await uploadPhoto(carId, photo.file, {
            signal,
            onProgress: (fraction) => setQueue(markProgress(queueRef.current, id, fraction)),
          });
          setQueue(markDone(queueRef.current, id, gallery.images.length - 1));
          eventsRef.current.onUploaded?.(id, gallery);
        } catch (error) {
          if (isAbortError(error)) return;
          setQueue(markFailed(queueRef.current, id, errorMessage(error, UPLOAD_FAILED_MESSAGE)));
        }
      }
    } finally {
      running.current = false;
    }
    eventsRef.current.onIdle?.(summaryNow());
  }, [setQueue, summaryNow]);

  /** Adds picked files (those that pass the quick checks); returns why the others were not added. */
  const add = useCallback(
    (files: readonly File[], alreadyOnServer = 0): string[] => {
      const { accepted, problems } = sortPickedFiles(files, alreadyOnServer + photosRef.current.length);
      if (accepted.length > 0) {
        const added = accepted.map((file) => ({ id: newIdempotencyKey(), file, url: URL.createObjectURL(file) }));
        setPhotos([...photosRef.current, ...added]);
        setQueue({ ...queueRef.current, ...newQueue(added.map((p) => p.id)) });
        void pump();
      }
      return problems;
    },
    [pump, setPhotos, setQueue],
  );

  const move = useCallback(
    (from: number, to: number) => {
      setPhotos(moveItem(photosRef.current, from, to));
    },
    [setPhotos],
  );

  /** Removes a photo that is not on its way up (waiting, failed, or already uploaded and kept elsewhere). */
  const remove = useCallback(
    (id: string) => {
      const photo = photosRef.current.find((p) => p.id === id);
      if (!photo || queueRef.current[id]?.status === 'uploading') return;
      URL.revokeObjectURL(photo.url);
      setPhotos(photosRef.current.filter((p) => p.id !== id));
      setQueue(dropUpload(queueRef.current, id));
      if (!running.current && carIdRef.current !== null) eventsRef.current.onIdle?.(summaryNow());
    },
    [setPhotos, setQueue, summaryNow],
  );

  const retry = useCallback(
    (id: string) => {
      setQueue(markRetry(queueRef.current, id));
      void pump();
    },
    [pump, setQueue],
  );

  /** Starts sending, to the listing `carId`; photos added later are sent as they come. */
  const start = useCallback(
    (carId: number) => {
      carIdRef.current = carId;
      void pump();
    },
    [pump],
  );

  /** The photos and their upload states as they are now (for code running between renders). */
  const snapshot = useCallback(() => ({ photos: photosRef.current, queue: queueRef.current }), []);

  const order = photos.map((p) => p.id);
  return { photos, queue, summary: summarize(order, queue), add, move, remove, retry, start, snapshot };
}
