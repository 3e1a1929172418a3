import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SALE_ROUTE_LABELS } from '@common/market-data.ts';
import { LISTING_LIMITS } from '@common/listing.ts';
import { formatUsd } from '@common/pricing.ts';
import { carPath } from '@common/paths.ts';
import type { SoldResult } from '@common/api-types.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { PageHero } from '../../../components/ui/page-hero.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { getResults, resultsPagePath, type ResultsQuery } from '../api/market-api.ts';
import { formatDay } from '../lib/price-history.ts';
import { parseResultsQuery, resultsParams } from '../lib/results-query.ts';
import './market.css';

const miles = new Intl.NumberFormat('en-US');

function ResultRow({ result }: { result: SoldResult }) {
  return (
    <tr data-testid="sold-result">
      <th scope="row">
        <Link to={carPath(result.carId)} className="text-link">{`${result.year} ${result.make} ${result.model}`}</Link>
      </th>
      <td data-label="Mileage">{`${miles.format(result.mileage)} mi`}</td>
      <td data-label="Sold for" className="results-table__price">
        {formatUsd(result.soldPrice)}
      </td>
      <td data-label="Date">
        <time dateTime={result.soldAt}>{formatDay(result.soldAt)}</time>
      </td>
      <td data-label="How it sold">{SALE_ROUTE_LABELS[result.via]}</td>
    </tr>
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
  useDocumentTitle('Sold results');
  const [params, setParams] = useSearchParams();
  const query = parseResultsQuery(params);
  const key = resultsParams(query).toString();
  const { resource, retry } = useResource(`results?${key}`, (signal) => getResults(query, signal), 'Could not load the results', resultsPagePath(query));
  const pageLink = (page: number) => `?${resultsParams({ ...query, page }).toString()}`;

  return (
    <>
      <PageHero eyebrow="Market data" title="Sold results" titleId="results-title" lead="What cars sold for on LuxeMotors: the price paid, when, and how the sale was agreed." />
      <div className="container page results">
        <ResultsFilter key={`${query.make}|${query.model}`} query={query} onApply={(make, model) => setParams(resultsParams({ make, model, page: 1 }))} />
        <Loaded resource={resource} retry={retry} label="Loading results...">
          {({ results, pagination }) =>
            results.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">No sold results yet</p>
                <p className="muted">{query.make || query.model ? 'Nothing matching these filters has sold. Try another make or model.' : 'Sales appear here once the buyer has received the car.'}</p>
              </div>
            ) : (
              <div className="results__list">
                <p className="muted" data-testid="results-count">{`${pagination.total} ${pagination.total === 1 ? 'sale' : 'sales'}, newest first`}</p>
                <div className="card results-table__frame">
                  <table className="results-table">
                    <caption className="sr-only">Sold cars, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Car</th>
                        <th scope="col">Mileage</th>
                        <th scope="col">Sold for</th>
                        <th scope="col">Date</th>
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
