import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorCode } from '@common/error-codes.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { createListing, publishListing, reorderPhotos } from '../api/selling-api.ts';
import { errorsFromDetails, toNewListing, type ListingErrors, type ListingFormValues } from '../lib/listing-form.ts';
import { galleryOrder } from '../lib/upload-queue.ts';
import { usePhotoQueue } from './use-photo-queue.ts';
import { carPath } from '@common/paths.ts';

export type PublishPhase = 'idle' | 'creating' | 'create-failed' | 'uploading' | 'finishing' | 'finish-failed';

/** The server refused the listing's details: its messages by field, and the rest. */
export interface ListingRefusal {
  fields: ListingErrors;
  message: string;
}

/**
 * Publishing a new listing: it is created as a draft (once, whatever the retries: the same body
 * keeps its Idempotency-Key), the chosen photos go up one by one, the gallery is put in the
 * chosen order, and the draft is published and opened. Leaving while this runs asks first.
 */
export function usePublishListing() {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<PublishPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [draftId, setDraftId] = useState<number | null>(null);
  const draftRef = useRef<number | null>(null);
  const createKey = useRef<{ key: string; body: string } | null>(null);
  const finishing = useRef(false);

  const uploads = usePhotoQueue({
    onIdle: (summary) => {
      if (summary.complete) void finish();
    },
  });

  // Leaving while photos are going up would lose them: ask first.
  const busy = phase === 'creating' || phase === 'uploading' || phase === 'finishing';
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  /** Creates the draft (unless it exists) and starts the uploads; a refusal of the details is returned. */
  async function publish(values: ListingFormValues): Promise<ListingRefusal | null> {
    setError(null);
    let id = draftRef.current;
    if (id === null) {
      setPhase('creating');
      const body = toNewListing(values, true);
      const json = JSON.stringify(body);
      // The same body retried (say after a lost answer) keeps its key, so it creates one listing.
      if (createKey.current?.body !== json) createKey.current = { key: newIdempotencyKey(), body: json };
      try {
        const car = await createListing(body, createKey.current.key);
        id = car.id;
        draftRef.current = id;
        setDraftId(id);
      } catch (err) {
        if (err instanceof ApiError && err.code === ErrorCode.VALIDATION_FAILED) {
          const { fields, other } = errorsFromDetails(err.details);
          setPhase('idle');
          return { fields, message: other.length > 0 ? other.join(' ') : 'Please correct the highlighted fields' };
        }
        setPhase('create-failed');
        setError(errorMessage(err));
        return null;
      }
    }
    setPhase('uploading');
    uploads.start(id);
    return null;
  }

  /** Orders the gallery, publishes the draft and opens it. */
  async function finish() {
    const id = draftRef.current;
    if (id === null || finishing.current) return;
    finishing.current = true;
    setPhase('finishing');
    setError(null);
    try {
      const { photos, queue } = uploads.snapshot();
      const order = galleryOrder(
        photos.map((p) => p.id),
        queue,
      );
      if (order) await reorderPhotos(id, order);
      await publishListing(id);
      navigate(carPath(id));
    } catch (err) {
      setPhase('finish-failed');
      setError(errorMessage(err));
    } finally {
      finishing.current = false;
    }
  }

  return { phase, busy, error, draftId, uploads, publish, finish };
}

export type PublishFlow = ReturnType<typeof usePublishListing>;
