import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { removePhoto, reorderPhotos, type CarDetail } from '../api/selling-api.ts';
import { useListingChange } from '../hooks/use-listing-change.ts';
import { usePhotoQueue } from '../hooks/use-photo-queue.ts';
import { moveItem, movedOrder, removeItem } from '../lib/photo-list.ts';
import type { EditFilesSectionProps } from './edit-section-parts.tsx';
import { PhotoDropZone } from './photo-drop-zone.tsx';
import { PhotoGrid, type PhotoTile } from './photo-grid.tsx';
import { UploadList } from './upload-list.tsx';

function photoTiles(car: CarDetail): PhotoTile[] {
  if (car.photos.length > 0) {
    return car.photos.map((p, i) => ({ key: p.card.webp, src: p.card.webp, name: `Photo ${i + 1}`, width: p.width, height: p.height }));
  }
  return car.images.map((url, i) => ({ key: url, src: url, name: `Photo ${i + 1}` }));
}

/** The car with its gallery in a new order (shown at once, while the server is asked). */
function withPhotoMove(car: CarDetail, from: number, to: number): CarDetail {
  return { ...car, photos: [...moveItem(car.photos, from, to)], images: [...moveItem(car.images, from, to)] };
}

function withoutPhoto(car: CarDetail, index: number): CarDetail {
  return { ...car, photos: [...removeItem(car.photos, index)], images: [...removeItem(car.images, index)] };
}

/** The listing's photos: reorder, remove and add more, each change shown at once. */
export function EditListingPhotos({ car, locked, onCar, refresh, onRefused }: EditFilesSectionProps & { onCar: (car: CarDetail) => void }) {
  const titleId = useId();
  const { busy, error, run } = useListingChange({ refresh, onRefused });
  const [pickProblems, setPickProblems] = useState<string[]>([]);
  const uploads = usePhotoQueue({
    onUploaded: (id) => {
      // Show the photo from the server, then let go of the local copy.
      void refresh().then(() => uploads.remove(id));
    },
  });
  const tiles = photoTiles(car);
  const uploading = uploads.summary.active > 0;

  function change(optimistic: CarDetail, request: () => Promise<unknown>) {
    onCar(optimistic);
    void run(request);
  }

  return (
    <section className="card sell-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="sell-card__title">
        Photos
      </h2>
      {error && (
        <Alert tone="error" testId="photo-error">
          <p>{error}</p>
        </Alert>
      )}
      {tiles.length === 0 && uploads.photos.length === 0 && <p className="muted">No photos yet. Listings with photos get far more interest.</p>}
      <PhotoGrid
        tiles={tiles}
        label="Photos of the listing, cover photo first"
        disabled={locked || busy || uploading}
        onMove={(from, to) => change(withPhotoMove(car, from, to), () => reorderPhotos(car.id, movedOrder(tiles.length, from, to)))}
        onRemove={(index) => change(withoutPhoto(car, index), () => removePhoto(car.id, index))}
      />
      <UploadList photos={uploads.photos} queue={uploads.queue} onRetry={uploads.retry} onRemove={uploads.remove} label="Photo uploads" />
      {!locked && (
        <PhotoDropZone
          count={tiles.length + uploads.photos.length}
          disabled={busy}
          onFiles={(files) => {
            uploads.start(car.id);
            setPickProblems(uploads.add(files, tiles.length));
          }}
          problems={pickProblems}
        />
      )}
    </section>
  );
}
