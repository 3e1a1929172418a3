import { useState, type DragEvent } from 'react';
import { UploadIcon } from '../../../components/ui/icons.tsx';
import { PHOTO_LIMITS, PHOTO_MAX_SIZE, PHOTO_TYPE_NAMES } from '@common/listing.ts';
import { PHOTO_ACCEPT } from '../lib/photo-list.ts';
import { FilePicker } from './file-picker.tsx';

/** True when a drag carries files from outside the page (not a photo tile being moved). */
function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * Where photos come in: drop files on it, or use the Choose Photos button. The parent decides
 * what to keep.
 */
export function PhotoDropZone({
  count,
  disabled = false,
  onFiles,
  problems,
}: {
  /** Photos the listing has (or will have) already. */
  count: number;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
  /** Why some picked files were not added. */
  problems: readonly string[];
}) {
  const [over, setOver] = useState(false);
  const full = count >= PHOTO_LIMITS.maxPhotos;
  const off = disabled || full;

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = off ? 'none' : 'copy';
    if (!off) setOver(true);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    setOver(false);
    if (!off) onFiles(Array.from(event.dataTransfer.files));
  }

  return (
    <div
      className={['photo-drop', over ? 'is-over' : '', off ? 'is-disabled' : ''].filter(Boolean).join(' ')}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
      data-testid="photo-drop-zone"
    >
      <span className="icon-disc photo-drop__icon" aria-hidden="true">
        <UploadIcon size={26} />
      </span>
      <p className="photo-drop__title">
        {full ? (
          'This listing has the most photos it can have'
        ) : (
          <>
            <span className="photo-drop__when-pointer">Drag photos here, or</span>
            <span className="photo-drop__when-touch">Add photos from your device</span>
          </>
        )}
      </p>
      <FilePicker
        accept={PHOTO_ACCEPT}
        disabled={off}
        onFiles={onFiles}
        problems={problems}
        inputClassName="photo-drop__input sr-only"
        buttonClassName="btn btn--outline photo-drop__button"
        button="Choose Photos"
        hintClassName="photo-drop__hint"
        hint={
          <>
            {PHOTO_TYPE_NAMES}, up to {PHOTO_MAX_SIZE} each, at most {PHOTO_LIMITS.maxPhotos} photos ({count} of{' '}
            {PHOTO_LIMITS.maxPhotos} added). The first photo is the cover.
          </>
        }
      />
    </div>
  );
}
