import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatUsd } from '@common/pricing.ts';
import { HeartIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { useResource } from '../../../lib/use-resource.ts';
import { useWatchlistStore } from '../../../lib/watchlist-store.ts';
import { getWatchedCars } from '../api/dashboard.ts';
import { carName } from '../lib/dashboard-format.ts';
import { EmptyPanel, Thumb } from './panel-parts.tsx';
import { carPath } from '@common/paths.ts';

/** "Watchlist": the cars the viewer follows, each with Remove. */
export function WatchlistPanel() {
  const { resource, retry, mutate } = useResource('watchlist', getWatchedCars);
  const remove = useWatchlistStore((s) => s.remove);
  const pending = useWatchlistStore((s) => s.pending);
  const [failed, setFailed] = useState<number | null>(null);

  async function onRemove(carId: number) {
    setFailed(null);
    const removed = await remove(carId);
    if (removed) mutate((cars) => cars.filter((c) => c.id !== carId));
    else setFailed(carId);
  }

  return (
    <Loaded resource={resource} retry={retry} label="Loading your watchlist...">
      {(cars) =>
        cars.length === 0 ? (
          <EmptyPanel icon={<HeartIcon size={28} />} title="Your watchlist is empty" link={{ to: '/', label: 'Browse cars' }}>
            Tap the heart on any car to follow its price and bids here.
          </EmptyPanel>
        ) : (
          <ul className="tile-grid" aria-label="Watched cars">
            {cars.map((car) => (
              <li key={car.id} className="watch-card" data-testid="watch-card">
                <Thumb src={car.primary_image} />
                <div className="watch-card__body">
                  <Link to={carPath(car.id)} className="dash-row__title dash-link">
                    {carName(car)}
                  </Link>
                  <p className="watch-card__price">{formatUsd(car.price)}</p>
                  <p className="dash-row__meta">
                    {car.location} · {car.current_bids === 1 ? '1 bid' : `${car.current_bids} bids`}
                  </p>
                  {failed === car.id && (
                    <p className="field__hint field__hint--error" role="alert">
                      Could not remove this car. Please try again.
                    </p>
                  )}
                </div>
                <button
                  type="button"
                  className="btn btn--outline btn--sm"
                  onClick={() => void onRemove(car.id)}
                  disabled={pending.has(car.id)}
                  aria-label={`Remove ${carName(car)} from watchlist`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}
