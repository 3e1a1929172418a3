import { useCallback, useEffect, useRef, useState } from 'react';
import type { DossierDocument } from '@common/schemas/dossier.ts';
import { errorMessage, isAbortError } from '../../../lib/api-client.ts';
import { uploadDocument } from '../api/selling-api.ts';
import { documentFieldErrors, documentFileProblem, DOSSIER_LIMITS, kindFromFileName, newDraftKey, titleFromFileName, type DocumentKind } from '../lib/dossier-form.ts';

export type DocumentUploadStatus = 'waiting' | 'uploading' | 'done' | 'failed';

/** A document picked from the seller's disk: its details as typed and how its upload goes. */
export interface LocalDocument {
  key: string;
  file: File;
  kind: DocumentKind;
  title: string;
  status: DocumentUploadStatus;
  /** Share of the file sent, 0..1 (1 while the server checks it). */
  progress: number;
  /** The server's (or the network's) sentence for a failed upload. */
  error: string | null;
  /** The document on the server, once uploaded. */
  uploaded: DossierDocument | null;
}

export const DOCUMENT_UPLOAD_FAILED_MESSAGE = 'The document could not be uploaded';

/**
 * The documents picked for a listing: each with its kind and title (a first guess from the file
 * name), sent one at a time with progress when asked (`upload`, `uploadAll`), a failure keeping
 * the server's sentence until it is retried or removed.
 */
export function useDocumentUploads() {
  const [documents, setDocumentsState] = useState<readonly LocalDocument[]>([]);
  const ref = useRef<readonly LocalDocument[]>([]);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    controller.current = abort;
    return () => abort.abort();
  }, []);

  const set = useCallback((next: readonly LocalDocument[]) => {
    ref.current = next;
    setDocumentsState(next);
  }, []);
  const patch = useCallback(
    (key: string, change: Partial<LocalDocument>) => set(ref.current.map((d) => (d.key === key ? { ...d, ...change } : d))),
    [set],
  );

  /** Adds picked files that pass the quick checks, keeping the car's total at the limit; returns why others were not added. */
  const add = useCallback(
    (files: readonly File[], alreadyOnServer: number): string[] => {
      const problems: string[] = [];
      const added: LocalDocument[] = [];
      let room = DOSSIER_LIMITS.maxDocuments - alreadyOnServer - ref.current.filter((d) => d.status !== 'done').length;
      for (const file of files) {
        const problem = documentFileProblem(file);
        if (problem) {
          problems.push(problem);
          continue;
        }
        if (room <= 0) {
          problems.push(`A listing has at most ${DOSSIER_LIMITS.maxDocuments} documents: ${file.name} was not added`);
          continue;
        }
        room -= 1;
        added.push({
          key: newDraftKey(),
          file,
          kind: kindFromFileName(file.name),
          title: titleFromFileName(file.name),
          status: 'waiting',
          progress: 0,
          error: null,
          uploaded: null,
        });
      }
      if (added.length > 0) set([...ref.current, ...added]);
      return problems;
    },
    [set],
  );

  const update = useCallback((key: string, change: Partial<Pick<LocalDocument, 'kind' | 'title'>>) => patch(key, { ...change, error: null }), [patch]);

  const remove = useCallback(
    (key: string) => {
      if (ref.current.find((d) => d.key === key)?.status === 'uploading') return;
      set(ref.current.filter((d) => d.key !== key));
    },
    [set],
  );

  /** Sends one document to the listing `carId`; resolves to it on the server, or null (its row says why). */
  const upload = useCallback(
    async (carId: number, key: string): Promise<DossierDocument | null> => {
      const document = ref.current.find((d) => d.key === key);
      if (!document) return null;
      if (document.uploaded) return document.uploaded;
      const problems = documentFieldErrors(document.kind, document.title);
      if (problems.kind || problems.title) {
        patch(key, { status: 'failed', error: problems.title ?? problems.kind ?? null });
        return null;
      }
      patch(key, { status: 'uploading', progress: 0, error: null });
      try {
        const uploaded = await uploadDocument(carId, document.file, { kind: document.kind, title: document.title.trim() }, {
          signal: controller.current?.signal,
          onProgress: (fraction) => patch(key, { progress: fraction }),
        });
        patch(key, { status: 'done', progress: 1, uploaded });
        return uploaded;
      } catch (error) {
        if (isAbortError(error)) return null;
        patch(key, { status: 'failed', error: errorMessage(error, DOCUMENT_UPLOAD_FAILED_MESSAGE) });
        return null;
      }
    },
    [patch],
  );

  /** Sends every document not on the server yet, in order; true when all of them are up. */
  const uploadAll = useCallback(
    async (carId: number): Promise<boolean> => {
      let complete = true;
      for (const document of [...ref.current]) {
        if (document.uploaded) continue;
        if (!(await upload(carId, document.key))) complete = false;
      }
      return complete;
    },
    [upload],
  );

  /** The server's id of a local document (`local:<key>`), once uploaded. */
  const serverId = useCallback((key: string) => ref.current.find((d) => d.key === key)?.uploaded?.id, []);

  return { documents, add, update, remove, upload, uploadAll, serverId };
}

export type DocumentUploads = ReturnType<typeof useDocumentUploads>;
