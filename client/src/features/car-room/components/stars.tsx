import { StarIcon } from './room-icons.tsx';
import '../../../components/ui/star-rating.css';

/** 1–5 stars with the rating as text for assistive technology ("4 out of 5 stars"). */
export function Stars({ rating, size = 16 }: { rating: number; size?: number }) {
  const rounded = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars" role="img" aria-label={`${rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} size={size} filled={n <= rounded} className={n <= rounded ? 'stars__on' : 'stars__off'} />
      ))}
    </span>
  );
}
