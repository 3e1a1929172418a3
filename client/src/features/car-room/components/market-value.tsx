import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { isAbortError } from '../../../lib/api-client.ts';
import { usePageData } from '../../../lib/page-data.tsx';
import { formatDate } from '../../../lib/relative-time.ts';
import { modelResultsPath, soldResultPath } from '../../market/index.ts';
import { getValuation, valuationPath, type CarDetail, type Valuation } from '../api/car-room-api.ts';

/** Recent sales named under the estimate, newest first; the rest are counted. */
const SALES_SHOWN = 3;

type Comparable = Valuation['comparables'][number];
type SaleUsed = Pick<Comparable, 'carId' | 'year' | 'price'> & { soldAt: string };

/** The sales among the comparables, newest first. */
export function salesUsed(valuation: Valuation): SaleUsed[] {
  return valuation.comparables
    .flatMap((c) => (c.source === 'sale' && c.soldAt ? [{ carId: c.carId, year: c.year, price: c.price, soldAt: c.soldAt }] : []))
    .sort((a, b) => Date.parse(b.soldAt) - Date.parse(a.soldAt) || b.carId - a.carId);
}

/**
 * The market value and where it comes from: comparable cars (how many, the likely range, and the
 * recent sales among them, each linking to its result), the sample catalogue's reference value,
 * or, with too few comparables, no value at all rather than a guess.
 */
export function MarketValue({ detail }: { detail: CarDetail }) {
  // A draft has no public valuation yet (only its seller can see the car at all).
  const comparables = detail.marketValue !== null && detail.marketValueBasis === 'comparables' && detail.status !== 'draft';
  const valuation = useValuation(detail.id, comparables ? detail.marketValue : null);
  if (detail.marketValue === null) {
    return (
      <p className="callout tone-neutral pricing-card__market--none" data-testid="market-value">
        Not enough comparable cars to estimate a market value
      </p>
    );
  }
  const count = valuation?.comparables.length ?? 0;
  return (
    <>
      <p className="pricing-card__market" data-testid="market-value">
        Market value: <strong>{formatUsd(detail.marketValue)}</strong>
      </p>
      {detail.marketValueBasis === 'reference' ? (
        <p className="pricing-card__basis" data-testid="market-basis">
          Reference value
        </p>
      ) : (
        valuation &&
        count > 0 && (
          <>
            <p className="pricing-card__basis" data-testid="market-basis">
              Based on {count} comparable {count === 1 ? 'car' : 'cars'}
              {valuation.low !== null && valuation.high !== null && valuation.low !== valuation.high && (
                <span className="pricing-card__range">
                  Likely range {formatUsd(valuation.low)} to {formatUsd(valuation.high)}
                </span>
              )}
            </p>
            <SalesUsed sales={salesUsed(valuation)} make={detail.make} model={detail.model} />
          </>
        )
      )}
    </>
  );
}

/** "Recent sales used": the sold cars among the comparables, each linking to its result. */
function SalesUsed({ sales, make, model }: { sales: SaleUsed[]; make: string; model: string }) {
  const titleId = useId();
  if (sales.length === 0) return null;
  const more = sales.length - SALES_SHOWN;
  return (
    <section className="market-sales" aria-labelledby={titleId} data-testid="market-sales">
      <h3 id={titleId} className="caps-label caps-label--sm market-sales__title">
        Recent sales used <span className="market-sales__zone">(dates in UTC)</span>
      </h3>
      <ul className="market-sales__list">
        {sales.slice(0, SALES_SHOWN).map((sale) => (
          <li key={sale.carId} className="market-sales__item" data-testid="market-sale">
            <Link to={soldResultPath(sale.carId)} className="text-link market-sales__car">
              {`${sale.year} ${make} ${model}`}
            </Link>{' '}
            <span className="market-sales__sold">
              sold <strong>{formatUsd(sale.price)}</strong> on <time dateTime={sale.soldAt}>{formatDate(sale.soldAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="market-sales__more">
          {`and ${more} more. `}
          <Link to={modelResultsPath(make, model)} className="text-link">
            {`All ${make} ${model} results`}
          </Link>
        </p>
      )}
    </section>
  );
}

/**
 * The valuation behind an estimated market value; read again when the value changes. A page the
 * server drew with the valuation's answer shows it from the first render (no shift, no second
 * read).
 */
function useValuation(carId: number, marketValue: number | null): Valuation | null {
  const key = `${carId}:${marketValue}`;
  const fromPage = usePageData<Valuation>(marketValue === null ? null : valuationPath(carId));
  const [loaded, setLoaded] = useState<{ key: string; valuation: Valuation } | null>(() => (fromPage ? { key, valuation: fromPage } : null));
  const servedByPage = useRef(fromPage ? key : null);
  useEffect(() => {
    if (marketValue === null) return;
    // Only the first look is answered by the page; a changed value is read again.
    if (servedByPage.current === key) {
      servedByPage.current = null;
      return;
    }
    const controller = new AbortController();
    getValuation(carId, controller.signal)
      .then((valuation) => setLoaded({ key, valuation }))
      .catch((error: unknown) => {
        if (!isAbortError(error)) setLoaded(null);
      });
    return () => controller.abort();
  }, [carId, marketValue, key]);
  return marketValue !== null && loaded?.key === key ? loaded.valuation : null;
}
