import { Link, useParams } from 'react-router-dom';
import { ComingSoon } from '../../../components/ui/coming-soon.tsx';

/** Placeholder: the car detail screen is built in a later issue. */
export function CarDetailScreen() {
  const { id } = useParams();
  return (
    <ComingSoon name="Car Details">
      <p className="muted">Vehicle #{id}</p>
      <Link to="/" className="btn btn--dark">
        Back to Listings
      </Link>
    </ComingSoon>
  );
}
