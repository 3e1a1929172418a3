import { formatUsd } from '@common/pricing.ts';
import type { PricePoint } from '@common/schemas/discovery.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { Link } from 'react-router-dom';
import { SALE_ROUTE_LABELS } from '@common/market-data.ts';
import { getPriceHistory, getSaleOf, priceHistoryPath, saleOfPath } from '../api/market-api.ts';
import { modelResultsPath, soldResultPath } from '../lib/results-query.ts';
import { formatDate } from '../../../lib/relative-time.ts';
import { chartGeometry, priceDropSentence } from '../lib/price-history.ts';
import './market.css';

const WIDTH = 320;
const HEIGHT = 96;
const PAD = 8;

/** The chart itself: a step line of the prices, described by a visually hidden table of them. */
export function PriceHistoryChart({ points }: { points: readonly PricePoint[] }) {
  const geometry = chartGeometry(points, WIDTH, HEIGHT, PAD);
  const drop = priceDropSentence(points);
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <section className="card price-history" aria-labelledby="price-history-title" data-testid="price-history">
      <div className="split-row">
        <h2 id="price-history-title" className="caps-label">
          Price history
        </h2>
        {first && <p className="muted price-history__since">{`Since ${formatDate(first.at)} (UTC)`}</p>}
      </div>
      {drop && (
        <p className="price-history__drop" data-testid="price-drop">
          {drop}
        </p>
      )}
      <svg className="price-history__chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        <polyline className="price-history__line" points={geometry.line} vectorEffect="non-scaling-stroke" />
        {geometry.dots.map((dot, i) => (
          <circle key={i} className="price-history__dot" cx={dot.x} cy={dot.y} r={3} vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      <div className="split-row price-history__range muted" aria-hidden="true">
        <span>{`Low ${formatUsd(geometry.low)}`}</span>
        {last && <span>{`Now ${formatUsd(last.price)}`}</span>}
        <span>{`High ${formatUsd(geometry.high)}`}</span>
      </div>
      <table className="sr-only">
        <caption>Asking price by date (UTC), oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Price</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={`${point.at}-${point.price}`}>
              <td>{formatDate(point.at)}</td>
              <td>{formatUsd(point.price)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A car's price history, on its page: nothing until there is more than one price to compare. */
export function PriceHistory({ carId }: { carId: number }) {
  const { resource } = useResource(`price-history:${carId}`, (signal) => getPriceHistory(carId, signal), undefined, priceHistoryPath(carId));
  if (resource.status !== 'success' || resource.data.points.length < 2) return null;
  return <PriceHistoryChart points={resource.data.points} />;
}

/** A sold car's page: what it sold for, and links to its own result and to its model's results. */
export function SoldResultNote({ carId }: { carId: number }) {
  const { resource } = useResource(`sale:${carId}`, (signal) => getSaleOf(carId, signal), undefined, saleOfPath(carId));
  const sale = resource.status === 'success' ? resource.data.results[0] : undefined;
  if (!sale) return null;
  return (
    <section className="callout tone-info stack" data-testid="car-sale">
      <p>{`Sold for ${formatUsd(sale.soldPrice)} on ${formatDate(sale.soldAt)} (UTC), ${SALE_ROUTE_LABELS[sale.via].toLowerCase()}.`}</p>
      <p className="cluster">
        <Link to={soldResultPath(sale.carId)} className="text-link">
          See this sale's result
        </Link>
        <Link to={modelResultsPath(sale.make, sale.model)} className="text-link">
          {`What other ${sale.make} ${sale.model} cars sold for`}
        </Link>
      </p>
    </section>
  );
}
