import { CheckIcon, RefreshIcon, TrashIcon } from '../../../components/ui/icons.tsx';
import type { LocalPhoto } from '../hooks/use-photo-queue.ts';
import { formatFileSize } from '../lib/photo-list.ts';
import type { UploadQueue, UploadState } from '../lib/upload-queue.ts';

/** "Waiting", "Uploading 45%", "Processing...", "Uploaded" or "Failed". */
export function uploadStatusText(state: UploadState): string {
  switch (state.status) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return state.progress >= 1 ? 'Processing...' : `Uploading ${Math.round(state.progress * 100)}%`;
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Failed';
  }
}

/**
 * One row per photo on its way up: a thumbnail, a progress bar, and for a failure the server's
 * sentence with Retry and Remove.
 */
export function UploadList({
  photos,
  queue,
  onRetry,
  onRemove,
  label,
}: {
  photos: readonly LocalPhoto[];
  queue: UploadQueue;
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
  label: string;
}) {
  if (photos.length === 0) return null;
  return (
    <ol className="upload-list" aria-label={label}>
      {photos.map((photo, index) => {
        const state = queue[photo.id];
        if (!state) return null;
        const percent = Math.round(state.progress * 100);
        const text = uploadStatusText(state);
        return (
          <li key={photo.id} className={`upload-row upload-row--${state.status}`} data-testid="upload-row" data-status={state.status}>
            <img className="upload-row__thumb" src={photo.url} alt="" width={96} height={64} decoding="async" />
            <div className="upload-row__main">
              <p className="upload-row__name" title={photo.file.name}>
                <span className="upload-row__position">{index + 1}.</span> {photo.file.name}
                <span className="upload-row__size"> · {formatFileSize(photo.file.size)}</span>
              </p>
              <div
                className="upload-row__bar"
                role="progressbar"
                aria-label={`Upload of ${photo.file.name}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={state.status === 'failed' ? 0 : percent}
                aria-valuetext={text}
              >
                <span style={{ width: `${state.status === 'failed' ? 100 : percent}%` }} />
              </div>
              <p className="icon-text upload-row__status" data-testid="upload-status">
                {state.status === 'done' && <CheckIcon size={15} />}
                {text}
              </p>
              {state.status === 'failed' && state.error && (
                <p className="field__hint field__hint--error" role="alert" data-testid="upload-error">
                  {state.error}
                </p>
              )}
            </div>
            {state.status === 'failed' && (
              <div className="cluster upload-row__actions">
                <button type="button" className="btn btn--outline btn--sm" onClick={() => onRetry(photo.id)}>
                  <RefreshIcon size={16} />
                  Retry<span className="sr-only"> {photo.file.name}</span>
                </button>
                <button type="button" className="btn btn--outline btn--sm" onClick={() => onRemove(photo.id)}>
                  <TrashIcon size={16} />
                  Remove<span className="sr-only"> {photo.file.name}</span>
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
