import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { SignedIn } from '../../../components/signed-in.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import type { SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useRefreshUnverifiedUser } from '../../../lib/use-refresh-unverified-user.ts';
import { useDossierForm } from '../hooks/use-dossier-form.ts';
import { useListingForm } from '../hooks/use-listing-form.ts';
import { usePublishListing } from '../hooks/use-publish-listing.ts';
import { EMPTY_DOSSIER } from '../lib/dossier-form.ts';
import { defaultAuctionEnd, EMPTY_LISTING, LISTING_FIELDS, toNewListing, type ListingField } from '../lib/listing-form.ts';
import { SellDetailsStep } from './sell-details-step.tsx';
import { SellPreviewStep } from './sell-preview-step.tsx';
import { SellPublishStep } from './sell-publish-step.tsx';
import { SellSteps, type SellStep } from './sell-steps.tsx';
import './selling.css';

/** A choice is made at once; text counts once the field is left. */
const IMMEDIATE_FIELDS: readonly ListingField[] = ['bodyStyle', 'condition', 'features', 'saleType', 'auctionEnds'];

/** `/sell`: signed-in users only; anyone else is sent to /login and brought back after. */
export function SellScreen() {
  useDocumentTitle('Sell Your Car');
  useRefreshUnverifiedUser();
  return <SignedIn>{(user) => <SellFlow user={user} />}</SignedIn>;
}

/**
 * Listing a car in three steps: the details and photos (checked as they are typed), a preview
 * of the card and the car page, then publishing: the listing is created as a draft, the photos
 * go up one by one in the chosen order, and the draft is published and opened. A draft left
 * half-way waits in the dashboard's My Listings.
 */
/** After a refused submit, the cursor goes to the first dossier field that says why. */
function focusFirstDossierProblem() {
  requestAnimationFrame(() => {
    const invalid = document.querySelector<HTMLElement>('.dossier-fields [aria-invalid="true"]');
    invalid?.focus();
  });
}

function SellFlow({ user }: { user: SessionUser }) {
  const idBase = useId();
  const titleId = useId();
  const verified = user.email_verified;
  const form = useListingForm({
    idBase,
    initial: () => EMPTY_LISTING,
    fields: LISTING_FIELDS,
    immediate: IMMEDIATE_FIELDS,
    blurOnlyWhenChanged: true,
    // Choosing an auction suggests an end (a week ahead), which the seller can change.
    onValueChange: (next, field, value, previous) =>
      field === 'saleType' && value === 'auction' && !previous.auctionEnds ? { ...next, auctionEnds: defaultAuctionEnd() } : next,
  });
  const year = /^\s*\d{4}\s*$/.test(form.values.year) ? Number(form.values.year) : null;
  // The VIN is checked against the make and year as typed above it.
  const dossier = useDossierForm({ initial: () => EMPTY_DOSSIER, car: { make: form.values.make.trim(), year } });
  const flow = usePublishListing();
  const [formError, setFormError] = useState<string | null>(null);
  const [pickProblems, setPickProblems] = useState<string[]>([]);

  const [step, setStep] = useState<SellStep>('details');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(false);

  // Each step opens at its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (!stepChanged.current) return;
    headingRef.current?.focus();
  }, [step]);

  function go(next: SellStep) {
    stepChanged.current = true;
    setStep(next);
  }

  function toPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const listingValid = form.submit().valid;
    const dossierValid = dossier.submit();
    if (listingValid && dossierValid) go('preview');
    else if (listingValid) focusFirstDossierProblem();
  }

  async function publish() {
    if (!verified || flow.busy) return;
    go('publish');
    const refusal = await flow.publish(form.values, dossier);
    if (refusal) {
      form.refuse(refusal.fields);
      if (refusal.dossier) dossier.refuse(refusal.dossier);
      setFormError(refusal.message);
      go('details');
    }
  }

  return (
    <div className="sell-page" data-testid="sell-page">
      <PageHero
        eyebrow="Sell your car"
        title="List your car with LuxeMotors"
        titleId={titleId}
        lead="Reach buyers of premium and luxury cars. Every sale is paid through escrow, so you are paid once the buyer has approved the car."
        overlap
      />
      <div className="container page-overlap sell-body">
        <SellSteps step={step} />

        {step === 'details' && (
          <SellDetailsStep
            idBase={idBase}
            headingRef={headingRef}
            form={form}
            dossier={dossier}
            dossierCar={{ make: form.values.make.trim(), year }}
            uploads={flow.uploads}
            documents={flow.documents}
            verified={verified}
            formError={formError}
            pickProblems={pickProblems}
            onPickProblems={setPickProblems}
            onSubmit={toPreview}
          />
        )}

        {step === 'preview' && (
          <SellPreviewStep
            idBase={idBase}
            headingRef={headingRef}
            listing={toNewListing(form.values, true)}
            photos={flow.uploads.photos}
            sellerName={user.name}
            verified={verified}
            onBack={() => go('details')}
            onPublish={() => void publish()}
          />
        )}

        {step === 'publish' && (
          <SellPublishStep
            idBase={idBase}
            headingRef={headingRef}
            flow={flow}
            onBackToPreview={() => go('preview')}
            onRetryCreate={() => void publish()}
          />
        )}
      </div>
    </div>
  );
}
