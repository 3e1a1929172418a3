import type { Ref } from 'react';
import type { LocalPhoto } from '../hooks/use-photo-queue.ts';
import type { NewListing } from '../lib/listing-form.ts';
import { ListingPreview } from './listing-preview.tsx';
import { UnverifiedSellerNotice } from './unverified-seller-notice.tsx';

/** Step 2: the card and the car page as buyers will see them. */
export function SellPreviewStep({
  idBase,
  headingRef,
  listing,
  photos,
  sellerName,
  verified,
  onBack,
  onPublish,
}: {
  idBase: string;
  headingRef: Ref<HTMLHeadingElement>;
  listing: NewListing;
  photos: readonly LocalPhoto[];
  sellerName: string;
  verified: boolean;
  onBack: () => void;
  onPublish: () => void;
}) {
  return (
    <section className="sell-preview" aria-labelledby={`${idBase}-preview-title`}>
      <div className="sell-section-head">
        <h2 id={`${idBase}-preview-title`} ref={headingRef} tabIndex={-1} className="sell-section-head__title">
          Preview listing
        </h2>
        <p className="muted">This is how buyers will see your car. Go back to change anything.</p>
      </div>
      {!verified && <UnverifiedSellerNotice />}
      <ListingPreview listing={listing} photos={photos} sellerName={sellerName} />
      <div className="sell-actions">
        <button type="button" className="btn btn--outline btn--lg" onClick={onBack}>
          Back to Edit
        </button>
        <button type="button" className="btn btn--primary btn--lg" onClick={onPublish} disabled={!verified}>
          Publish Listing
        </button>
      </div>
    </section>
  );
}
