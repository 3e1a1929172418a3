import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SALE_ROUTE_LABELS } from '@common/market-data.ts';
import { LISTING_LIMITS } from '@common/listing.ts';
import { formatUsd } from '@common/pricing.ts';
import { PAGE_TITLES } from '@common/page-titles.ts';
import { PAGES, carPath } from '@common/paths.ts';
import type { SoldResult } from '@common/schemas/discovery.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { formatDate } from '../../../lib/relative-time.ts';
import { formatMileage } from '../../../lib/quantities.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getResults, resultsPagePath, type ResultsQuery } from '../api/market-api.ts';
import { parseResultsQuery, resultsParams } from '../lib/results-query.ts';
import './market.css';

function ResultRow({ result }: { result: SoldResult }) {
  return (
    <tr data-testid="sold-result">
      <th scope="row">
        <Link to={carPath(result.carId)} className="text-link">{`${result.year} ${result.make} ${result.model}`}</Link>
      </th>
      <td data-label="Mileage">{formatMileage(result.mileage)}</td>
      <td data-label="Sold for" className="results-table__price">
        {formatUsd(result.soldPrice)}
      </td>
      <td data-label="Date (UTC)">
        <time dateTime={result.soldAt}>{formatDate(result.soldAt)}</time>
      </td>
      <td data-label="How it sold">{SALE_ROUTE_LABELS[result.via]}</td>
    </tr>
  );
}

/** The sales as a table (on a phone, one small card each). Days are UTC dates, the same on the server and in every browser. */
function ResultsTable({ results, caption }: { results: SoldResult[]; caption: string }) {
  return (
    <div className="card results-table__frame">
      <table className="results-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Car</th>
            <th scope="col">Mileage</th>
            <th scope="col">Sold for</th>
            <th scope="col">Date (UTC)</th>
            <th scope="col">How it sold</th>
          </tr>
        </thead>
        <tbody>
          {results.map((result) => (
            <ResultRow key={`${result.carId}-${result.soldAt}`} result={result} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One car's sale (`/results?carId=42`, where a sold car's page links): its row under a heading
 * that names it, and the way to every sale of its model and to all results.
 */
function OneSale({ results, carId }: { results: SoldResult[]; carId: number }) {
  const sale = results[0];
  const allResults = (
    <Link to={PAGES.results} className="btn btn--outline">
      All sold results
    </Link>
  );
  if (!sale) {
    return (
      <div className="empty-state" data-testid="one-sale">
        <p className="empty-state__title">No sale on record for this car</p>
        <p className="muted">
          It has not sold on LuxeMotors, or its sale is not complete yet.{' '}
          <Link to={carPath(carId)} className="text-link">
            See the car
          </Link>
        </p>
        <div className="cluster results__one-actions">{allResults}</div>
      </div>
    );
  }
  const title = `${sale.year} ${sale.make} ${sale.model}`;
  return (
    <section className="results__one" aria-labelledby="one-sale-title" data-testid="one-sale">
      <p className="caps-label caps-label--sm">One car's result</p>
      <h2 id="one-sale-title" className="results__one-title">{`${title}, sold for ${formatUsd(sale.soldPrice)}`}</h2>
      <ResultsTable results={[sale]} caption={`The sale of this ${title}`} />
      <div className="cluster results__one-actions">
        <Link to={`${PAGES.results}?${resultsParams({ make: sale.make, model: sale.model, page: 1 }).toString()}`} className="btn btn--dark">
          {`See all ${sale.make} ${sale.model} results`}
        </Link>
        {allResults}
      </div>
    </section>
  );
}

/** The make and model filter: applied on submit, so typing does not add history entries. */
function ResultsFilter({ query, onApply }: { query: ResultsQuery; onApply: (make: string, model: string) => void }) {
  const [make, setMake] = useState(query.make);
  const [model, setModel] = useState(query.model);
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(make, model);
  }
  return (
    <form className="results-filter" onSubmit={submit} role="search" aria-label="Filter sold results">
      <TextField id="results-make" label="Make" value={make} onChange={setMake} maxLength={LISTING_LIMITS.make} placeholder="Any make" />
      <TextField id="results-model" label="Model" value={model} onChange={setModel} maxLength={LISTING_LIMITS.model} placeholder="Any model" />
      <div className="cluster results-filter__actions">
        <button type="submit" className="btn btn--dark">
          Show results
        </button>
        {(query.make || query.model) && (
          <button type="button" className="btn btn--outline" onClick={() => onApply('', '')}>
            Clear
          </button>
        )}
      </div>
    </form>
  );
}

/** `/results`: what cars actually sold for, newest first, by make and model (kept in the URL). */
export function ResultsScreen() {
  useDocumentTitle(PAGE_TITLES.results);
  const [params, setParams] = useSearchParams();
  const query = parseResultsQuery(params);
  const key = resultsParams(query).toString();
  const { resource, retry } = useResource(`results?${key}`, (signal) => getResults(query, signal), 'Could not load the results', resultsPagePath(query));
  const pageLink = (page: number) => `?${resultsParams({ ...query, page }).toString()}`;

  return (
    <>
      <PageHero eyebrow="Market data" title="Sold results" titleId="results-title" lead="What cars sold for on LuxeMotors: the price paid, when, and how the sale was agreed." />
      <div className="container page results">
        {query.carId ? null : (
          <ResultsFilter key={`${query.make}|${query.model}`} query={query} onApply={(make, model) => setParams(resultsParams({ make, model, page: 1 }))} />
        )}
        <Loaded resource={resource} retry={retry} label={query.carId ? 'Loading the sale...' : 'Loading results...'}>
          {({ results, pagination }) =>
            query.carId ? (
              <OneSale results={results} carId={query.carId} />
            ) : results.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">No sold results yet</p>
                <p className="muted">{query.make || query.model ? 'Nothing matching these filters has sold. Try another make or model.' : 'Sales appear here once the buyer has received the car.'}</p>
              </div>
            ) : (
              <div className="results__list">
                <p className="muted" data-testid="results-count">{`${pagination.total} ${pagination.total === 1 ? 'sale' : 'sales'}, newest first`}</p>
                <ResultsTable results={results} caption="Sold cars, newest first" />
                {pagination.pages > 1 && (
                  <nav className="cluster results__pages" aria-label="Result pages">
                    {query.page > 1 ? (
                      <Link className="btn btn--outline" to={pageLink(query.page - 1)} rel="prev">
                        Previous
                      </Link>
                    ) : null}
                    <span aria-current="page">{`Page ${query.page} of ${pagination.pages}`}</span>
                    {query.page < pagination.pages ? (
                      <Link className="btn btn--outline" to={pageLink(query.page + 1)} rel="next">
                        Next
                      </Link>
                    ) : null}
                  </nav>
                )}
              </div>
            )
          }
        </Loaded>
      </div>
    </>
  );
}
