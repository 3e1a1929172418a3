import { useCallback, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { SignedIn } from '../../../components/signed-in.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { ArrowLeftIcon, EyeIcon, LockIcon } from '../../../components/ui/icons.tsx';
import { NotFoundPage, ScreenError, ScreenLoading } from '../../../components/ui/load-state.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { canWithdraw, isListingLocked, listingLockedReason, listingStatusLabel, listingStatusTone } from '../../../lib/listing-status.ts';
import { parseId } from '@common/ids.ts';
import type { SessionUser } from '../../../lib/session-store.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useRefreshUnverifiedUser } from '../../../lib/use-refresh-unverified-user.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getListing, publishListing, type CarDetail } from '../api/selling-api.ts';
import { EditListingDetails } from './edit-listing-details.tsx';
import { EditListingDocuments, EditListingDossier } from './edit-listing-dossier.tsx';
import { EditListingPhotos } from './edit-listing-photos.tsx';
import { UnverifiedSellerNotice } from './unverified-seller-notice.tsx';
import { WithdrawListingDialog } from './withdraw-listing-dialog.tsx';
import './selling.css';
import { carPath } from '@common/paths.ts';

/** `/sell/:id/edit`: the seller's own listing; anyone else sees that there is no such listing. */
export function EditListingScreen() {
  useRefreshUnverifiedUser();
  const carId = parseId(useParams().id);
  return (
    <SignedIn>
      {(user) => (carId === null ? <ListingNotFound /> : <EditListing key={`${carId}:${user.id}`} carId={carId} user={user} />)}
    </SignedIn>
  );
}

function ListingNotFound() {
  return (
    <NotFoundPage titleId="listing-not-found-title" title="Listing Not Found" action={{ to: '/dashboard?tab=listings', label: 'Go to My Listings' }}>
      This listing does not exist, or it is not one of yours.
    </NotFoundPage>
  );
}

/** The seller's own listing, or null when there is no such listing or it is someone else's. */
async function readOwnListing(carId: number, userId: number, signal: AbortSignal): Promise<CarDetail | null> {
  try {
    const car = await getListing(carId, signal);
    return car.seller.userId === userId ? car : null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

function EditListing({ carId, user }: { carId: number; user: SessionUser }) {
  const { resource, retry, mutate } = useResource(`listing:${carId}:${user.id}`, (signal) => readOwnListing(carId, user.id, signal));
  const replace = useCallback((car: CarDetail) => mutate(() => car), [mutate]);

  if (resource.status === 'loading') return <ScreenLoading title="Edit Listing" label="Loading your listing..." />;
  if (resource.status === 'error') return <ScreenError title="Edit Listing" message={resource.message} onRetry={retry} />;
  if (resource.data === null) return <ListingNotFound />;
  return <EditListingView car={resource.data} user={user} onCar={replace} />;
}

function EditListingView({ car, user, onCar }: { car: CarDetail; user: SessionUser; onCar: (car: CarDetail) => void }) {
  const navigate = useNavigate();
  const titleId = useId();
  const title = `${car.year} ${car.make} ${car.model}`;
  useDocumentTitle(`Edit ${title}`);
  const locked = isListingLocked(car.status);
  const lockedReason = listingLockedReason(car.status);
  const verified = user.email_verified;

  const [publishing, setPublishing] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [withdrawOpen, setWithdrawOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  async function refresh(): Promise<void> {
    try {
      onCar(await getListing(car.id));
    } catch {
      // The next action will say what is wrong.
    }
  }

  /** A 409 LISTING_LOCKED (or any refusal) re-reads the listing so the page shows why. */
  function reReadIfLocked(error: unknown) {
    if (error instanceof ApiError && (error.code === ErrorCode.LISTING_LOCKED || error.status === 409)) void refresh();
  }

  function onRefused(error: unknown, show: (message: string) => void) {
    show(errorMessage(error));
    reReadIfLocked(error);
  }

  async function publish() {
    setPublishing(true);
    setActionError(null);
    try {
      await publishListing(car.id);
      navigate(carPath(car.id));
    } catch (error) {
      setPublishing(false);
      onRefused(error, setActionError);
    }
  }

  return (
    <div className="container page edit-listing" data-testid="edit-listing">
      <Link to="/dashboard?tab=listings" className="edit-listing__back">
        <ArrowLeftIcon size={18} />
        Back to My Listings
      </Link>
      <header className="split-row edit-listing__header">
        <div>
          <p className="eyebrow eyebrow--dark">Edit listing</p>
          <h1 id={titleId} className="page-title edit-listing__title">
            {title}
          </h1>
          <p className="edit-listing__meta">
            <span className={`status-badge status-badge--${listingStatusTone(car.status)}`} data-testid="listing-status">
              {listingStatusLabel(car.status)}
            </span>
            <span>
              {car.bodyStyle ? `${car.bodyStyle[0]!.toUpperCase()}${car.bodyStyle.slice(1)} · ` : ''}Asking {formatUsd(car.price)}
            </span>
          </p>
        </div>
        {car.status !== 'draft' && (
          <Link to={carPath(car.id)} className="btn btn--outline">
            <EyeIcon size={18} />
            View Listing
          </Link>
        )}
      </header>

      {!verified && <UnverifiedSellerNotice />}
      {notice && (
        <Alert tone="success" testId="edit-notice">
          <p>{notice}</p>
        </Alert>
      )}
      {lockedReason && (
        <Alert tone="info" title="This listing is locked" testId="listing-locked">
          <p>{lockedReason}</p>
        </Alert>
      )}

      <div className="edit-listing__layout">
        <div className="edit-listing__main">
          <EditListingDetails key={`${car.id}`} car={car} locked={locked} onSaved={onCar} onRefused={onRefused} />
          <EditListingPhotos car={car} locked={locked} onCar={onCar} refresh={refresh} onRefused={onRefused} />
          <EditListingDocuments car={car} locked={locked} refresh={refresh} onRefused={onRefused} />
          <EditListingDossier key={`dossier-${car.id}`} car={car} locked={locked} onSaved={onCar} onRefused={onRefused} />
        </div>

        <aside className="edit-listing__aside" aria-label="Listing status and actions">
          <section className="card sell-card edit-status">
            <h2 className="sell-card__title">
              {car.status === 'draft' ? (
                'Ready to publish?'
              ) : locked ? (
                <>
                  <LockIcon size={18} /> Locked
                </>
              ) : (
                'On the market'
              )}
            </h2>
            <p className="muted">
              {car.status === 'draft'
                ? 'Only you can see this draft. Publish it to put it on the market; the market value is estimated from comparable cars.'
                : locked
                  ? lockedReason
                  : 'Buyers see changes at once. A lower price is sent to everyone watching the car.'}
            </p>
            {actionError && (
              <p className="field__hint field__hint--error" role="alert">
                {actionError}
              </p>
            )}
            {car.status === 'draft' && (
              <button type="button" className="btn btn--primary btn--block btn--lg" onClick={() => void publish()} disabled={publishing || !verified}>
                {publishing ? 'Publishing...' : 'Publish Listing'}
              </button>
            )}
            {canWithdraw(car.status) && (
              <button type="button" className="btn btn--outline btn--block" onClick={() => setWithdrawOpen(true)} aria-haspopup="dialog">
                {car.status === 'draft' ? 'Discard Draft' : 'Withdraw Listing'}
              </button>
            )}
          </section>
        </aside>
      </div>

      <WithdrawListingDialog
        carId={car.id}
        carName={title}
        open={withdrawOpen}
        draft={car.status === 'draft'}
        onClose={() => setWithdrawOpen(false)}
        onWithdrawn={(withdrawn) => {
          onCar(withdrawn);
          setWithdrawOpen(false);
          setNotice('Your listing was withdrawn. It is off the market, and people watching it have been told.');
        }}
        onRefused={reReadIfLocked}
      />
    </div>
  );
}
