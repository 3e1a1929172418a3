import { useRef } from 'react';
import { listingPageName } from '@common/page-titles.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { ErrorNotice } from '../../../components/ui/load-state.tsx';
import { ShieldCheckIcon, TrendIcon, CarIcon } from '../../../components/ui/icons.tsx';
import { useCars } from '../hooks/use-cars.ts';
import { useLiveListing } from '../hooks/use-live-listing.ts';
import { useListingQuery } from '../hooks/use-listing-query.ts';
import { listingCountText } from '../lib/format.ts';
import { pickFilters, writeFilterParams } from '../../market/index.ts';
import { CarCard } from './car-card.tsx';
import { FilterPanel } from './filter-panel.tsx';
import { ListingSearch } from './listing-search.tsx';
import { ListingToolbar } from './listing-toolbar.tsx';
import { Pager } from './pager.tsx';
import './listings-screen.css';

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

export function ListingsScreen() {
  const [query, update] = useListingQuery();
  useDocumentTitle(listingPageName(query.page));
  const { result, retry } = useCars(query);
  useLiveListing(result.status === 'success' ? result.data.cars : null);
  const resultsRef = useRef<HTMLElement>(null);
  const hasCars = result.status === 'success' && result.data.cars.length > 0;
  // A page past the end (e.g. ?page=9 of 3, an old link) is not "no vehicles": there are some,
  // just not on this page.
  const pastTheEnd =
    result.status === 'success' &&
    result.data.cars.length === 0 &&
    result.data.pagination.total > 0 &&
    query.page > 1;

  function goToPage(page: number) {
    update({ type: 'page', page });
    requestAnimationFrame(() => {
      resultsRef.current?.scrollIntoView({
        behavior: prefersReducedMotion() ? 'auto' : 'smooth',
        block: 'start',
      });
    });
  }

  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <p className="eyebrow">Premium &amp; luxury marketplace</p>
          <h1 id="hero-title" className="hero__title">
            Exceptional cars, bought with confidence
          </h1>
          <p className="hero__lead">
            Browse verified listings, see every price against its market value, and buy through
            our secure escrow service.
          </p>
          <ListingSearch
            key={query.search}
            initialValue={query.search}
            onSearch={(search) => update({ type: 'search', search })}
          />
          <ul className="hero__trust">
            <li>
              <ShieldCheckIcon size={18} /> Verified sellers
            </li>
            <li>
              <TrendIcon size={18} /> Live market pricing
            </li>
            <li>
              <CarIcon size={18} /> Escrow-protected purchases
            </li>
          </ul>
        </div>
      </section>

      <section
        ref={resultsRef}
        className="container listings"
        aria-labelledby="listings-title"
        aria-busy={result.status === 'loading'}
      >
        <div className="split-row listings__header">
          <h2 id="listings-title" className="section-title">
            Available Vehicles
          </h2>
          {(hasCars || pastTheEnd) && result.status === 'success' && (
            <p className="listing-count" data-testid="listing-count">
              {listingCountText(result.data.cars.length, result.data.pagination.total)}
            </p>
          )}
        </div>

        <ListingToolbar
          filter={query.filter}
          sort={query.sort}
          onFilterChange={(filter) => update({ type: 'filter', filter })}
          onSortChange={(sort) => update({ type: 'sort', sort })}
        />

        <FilterPanel
          key={writeFilterParams(pickFilters(query), new URLSearchParams()).toString()}
          query={query}
          onApply={(criteria) => update({ type: 'criteria', criteria })}
          onClear={() => update({ type: 'clear-criteria' })}
        />

        <div className="listings__results">
          {result.status === 'loading' && <LoadingStatus label="Loading vehicles..." />}

          {result.status === 'error' && <ErrorNotice message={result.message} onRetry={retry} size="md" />}

          {result.status === 'success' && pastTheEnd && (
            <>
              <div className="empty-state" data-testid="past-the-end">
                <p className="empty-state__title">{`There is no page ${query.page}`}</p>
                <p className="muted">
                  {`These results end on page ${Math.max(1, result.data.pagination.pages)}.`}
                </p>
                <button type="button" className="btn btn--dark" onClick={() => goToPage(1)}>
                  Back to page 1
                </button>
              </div>
              <Pager page={query.page} pages={result.data.pagination.pages} onPageChange={goToPage} />
            </>
          )}

          {result.status === 'success' && result.data.cars.length === 0 && !pastTheEnd && (
            <div className="empty-state">
              <p className="empty-state__title">No vehicles found matching your criteria</p>
              <button
                type="button"
                className="btn btn--dark"
                onClick={() => update({ type: 'clear' })}
              >
                Clear Filters
              </button>
            </div>
          )}

          {result.status === 'success' && hasCars && (
            <>
              <ul className="tile-grid car-grid" aria-label="Vehicles">
                {result.data.cars.map((car) => (
                  <li key={car.id}>
                    <CarCard car={car} />
                  </li>
                ))}
              </ul>
              <Pager
                page={result.data.pagination.page || query.page}
                pages={result.data.pagination.pages}
                onPageChange={goToPage}
              />
            </>
          )}
        </div>
      </section>
    </>
  );
}
