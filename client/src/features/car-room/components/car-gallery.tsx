import { useId, useState, type KeyboardEvent } from 'react';
import type { CarPhoto } from '@common/schemas/cars.ts';
import { viewNameOf } from '../lib/format.ts';
import { ChevronLeftIcon, ChevronRightIcon } from './room-icons.tsx';
import '../../cars/index.ts';

/** Alt text for photo `index` of `count`: "2021 Ferrari SF90 Stradale, side view (2 of 4)". */
export function imageAlt(title: string, url: string, index: number, count: number): string {
  const view = viewNameOf(url);
  return `${title}${view ? `, ${view}` : ''} (${index + 1} of ${count})`;
}

/**
 * Main image with previous/next buttons and a row of thumbnails. Thumbnails are buttons
 * (Tab + Enter/Space); arrow keys, Home and End move through the photos from anywhere in it.
 */
export function CarGallery({ images, photos = [], title }: { images: string[]; photos?: CarPhoto[]; title: string }) {
  const [selected, setSelected] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const thumbsId = useId();
  // Uploaded photos come in WebP with a JPEG fallback and known sizes; the sample catalogue's
  // illustrations are single files.
  const usePhotos = photos.length > 0;
  const count = usePhotos ? photos.length : images.length;
  const index = count === 0 ? 0 : Math.min(selected, count - 1);
  const photo = usePhotos ? photos[index] : undefined;
  const current = usePhotos ? photo?.gallery.jpeg : images[index];

  if (count === 0 || current === undefined) {
    return (
      <div className="gallery">
        <div className="gallery__stage">
          <div className="car-card__no-image">No Image</div>
        </div>
      </div>
    );
  }

  const go = (next: number) => setSelected(((next % count) + count) % count);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest('input, textarea, select')) return;
    const moves: Record<string, number> = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: count - 1 };
    const next = moves[event.key];
    if (next === undefined || count < 2) return;
    event.preventDefault();
    go(next);
    // Keep focus on the thumbnail of the photo shown, when focus was on a thumbnail.
    const thumb = (event.currentTarget.querySelectorAll<HTMLButtonElement>('.gallery__thumb'))[((next % count) + count) % count];
    if ((event.target as HTMLElement).classList.contains('gallery__thumb')) thumb?.focus();
  }

  return (
    <div className="gallery" role="region" aria-roledescription="carousel" aria-label={`Photos of the ${title}`} onKeyDown={onKeyDown}>
      <div className="gallery__stage">
        {failed.has(current) ? (
          <div className="car-card__no-image">No Image</div>
        ) : photo ? (
          <picture key={current}>
            <source type="image/webp" srcSet={photo.gallery.webp} />
            <img
              src={photo.gallery.jpeg}
              alt={imageAlt(title, '', index, count)}
              width={photo.width}
              height={photo.height}
              decoding="async"
              fetchPriority={index === 0 ? 'high' : undefined}
              onError={() => setFailed((prev) => new Set(prev).add(current))}
              data-testid="gallery-photo"
            />
          </picture>
        ) : (
          <img
            key={current}
            src={current}
            alt={imageAlt(title, current, index, count)}
            width={1280}
            height={800}
            decoding="async"
            fetchPriority={index === 0 ? 'high' : undefined}
            onError={() => setFailed((prev) => new Set(prev).add(current))}
          />
        )}
        {count > 1 && (
          <>
            <button type="button" className="gallery__nav gallery__nav--prev" aria-label="Previous photo" onClick={() => go(index - 1)}>
              <ChevronLeftIcon size={22} />
            </button>
            <button type="button" className="gallery__nav gallery__nav--next" aria-label="Next photo" onClick={() => go(index + 1)}>
              <ChevronRightIcon size={22} />
            </button>
            <p className="gallery__counter" aria-live="polite">
              {index + 1} / {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="gallery__thumbs" id={thumbsId} aria-label="Choose a photo">
          {usePhotos
            ? photos.map((p, i) => (
                <li key={p.card.webp}>
                  <button
                    type="button"
                    className="photo-thumb gallery__thumb"
                    aria-current={i === index ? 'true' : undefined}
                    aria-label={`Show photo ${i + 1} of ${count}`}
                    onClick={() => go(i)}
                  >
                    <picture>
                      <source type="image/webp" srcSet={p.card.webp} />
                      <img src={p.card.jpeg} alt="" width={p.width} height={p.height} loading="lazy" decoding="async" />
                    </picture>
                  </button>
                </li>
              ))
            : images.map((url, i) => (
                <li key={url}>
                  <button
                    type="button"
                    className="photo-thumb gallery__thumb"
                    aria-current={i === index ? 'true' : undefined}
                    aria-label={`Show photo ${i + 1} of ${count}${viewNameOf(url) ? `: ${viewNameOf(url)}` : ''}`}
                    onClick={() => go(i)}
                  >
                    <img src={url} alt="" width={160} height={100} loading="lazy" decoding="async" />
                  </button>
                </li>
              ))}
        </ul>
      )}
    </div>
  );
}
