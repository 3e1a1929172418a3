import { Link } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';

/** Why an unverified account cannot list yet, and where to fix it (as Buy with Escrow says it). */
export function UnverifiedSellerNotice() {
  return (
    <Alert tone="info" title="Verify your email to list a car" testId="sell-verify-notice">
      <p>
        Listings need a verified email address. Use the link we emailed you, or send a new one from{' '}
        <Link to="/dashboard" className="text-link">
          your dashboard
        </Link>
        . You can fill in and preview your listing meanwhile.
      </p>
    </Alert>
  );
}
