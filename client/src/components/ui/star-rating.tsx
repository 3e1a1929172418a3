import { StarIcon } from './icons.tsx';
import './star-rating.css';

/** Five stars with the rating filled in; read out as "Rated 4 out of 5 stars". */
export function StarRating({ rating, size = 18, className }: { rating: number; size?: number; className?: string }) {
  const value = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span
      className={className ? `stars ${className}` : 'stars'}
      role="img"
      aria-label={`Rated ${value} out of 5 stars`}
      data-rating={value}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon
          key={n}
          size={size}
          className={n <= value ? 'stars__star stars__star--on' : 'stars__star'}
          fill={n <= value ? 'currentColor' : 'none'}
        />
      ))}
    </span>
  );
}
