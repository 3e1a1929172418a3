import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorCode } from '@common/error-codes.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { createListing, publishListing, reorderPhotos, saveDossier } from '../api/selling-api.ts';
import { buildDossierEdit, dossierErrorsFromDetails, dossierFormValues, type DossierErrors } from '../lib/dossier-form.ts';
import { errorsFromDetails, toNewListing, type ListingErrors, type ListingFormValues } from '../lib/listing-form.ts';
import type { DossierForm } from './use-dossier-form.ts';
import { useDocumentUploads } from './use-document-uploads.ts';
import { galleryOrder } from '../lib/upload-queue.ts';
import { usePhotoQueue } from './use-photo-queue.ts';
import { carPath } from '@common/paths.ts';

export type PublishPhase = 'idle' | 'creating' | 'create-failed' | 'documents' | 'dossier' | 'uploading' | 'finishing' | 'finish-failed';

/** The server refused the listing's details: its messages by field, and the rest. */
export interface ListingRefusal {
  fields: ListingErrors;
  /** The dossier's fields the server refused. */
  dossier?: DossierErrors;
  message: string;
}

/**
 * Publishing a new listing: it is created as a draft (once, whatever the retries: the same body
 * keeps its Idempotency-Key), its documents go up and its dossier is saved (service records
 * pointing at the invoices just uploaded), the chosen photos go up one by one, the gallery is
 * put in the chosen order, and the draft is published and opened. Leaving while this runs asks first.
 */
export function usePublishListing() {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<PublishPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [draftId, setDraftId] = useState<number | null>(null);
  const draftRef = useRef<number | null>(null);
  const createKey = useRef<{ key: string; body: string } | null>(null);
  const finishing = useRef(false);

  const documents = useDocumentUploads();
  const uploads = usePhotoQueue({
    onIdle: (summary) => {
      if (summary.complete) void finish();
    },
  });

  // Leaving while photos are going up would lose them: ask first.
  const busy = phase === 'creating' || phase === 'documents' || phase === 'dossier' || phase === 'uploading' || phase === 'finishing';
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  /** Creates the draft (unless it exists) and starts the uploads; a refusal of the details is returned. */
  async function publish(values: ListingFormValues, dossier: DossierForm): Promise<ListingRefusal | null> {
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
    const refusal = await saveDossierOf(id, dossier);
    if (refusal) return refusal;
    setPhase('uploading');
    uploads.start(id);
    return null;
  }

  /** Uploads the documents, then saves the dossier that may point at them; a refusal goes back to the form. */
  async function saveDossierOf(id: number, dossier: DossierForm): Promise<ListingRefusal | null> {
    if (documents.documents.some((d) => !d.uploaded)) {
      setPhase('documents');
      if (!(await documents.uploadAll(id))) {
        setPhase('idle');
        return { fields: {}, message: 'Some documents could not be uploaded: see why beside each, then publish again.' };
      }
    }
    const { body, origin } = buildDossierEdit(dossier.values, (reference) =>
      reference.startsWith('doc:') ? Number(reference.slice(4)) : documents.serverId(reference.slice('local:'.length)),
    );
    const empty = !body.vin && !body.chassisNumber && [body.knownFlaws, body.modifications, body.itemsIncluded, body.serviceRecords].every((list) => !list?.length);
    if (empty) return null;
    setPhase('dossier');
    try {
      const car = await saveDossier(id, body);
      // The entries now have the server's ids: a later attempt replaces them instead of adding them again.
      dossier.reset(dossierFormValues(car.dossier));
      return null;
    } catch (err) {
      setPhase('idle');
      if (err instanceof ApiError && err.code === ErrorCode.VALIDATION_FAILED) {
        const { errors, other } = dossierErrorsFromDetails(err.details, origin);
        return { fields: {}, dossier: errors, message: other.length > 0 ? other.join(' ') : 'Please correct the highlighted fields of the dossier' };
      }
      return { fields: {}, message: errorMessage(err) };
    }
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

  return { phase, busy, error, draftId, uploads, documents, publish, finish };
}

export type PublishFlow = ReturnType<typeof usePublishListing>;
