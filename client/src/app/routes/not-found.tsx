import { useNavigate } from 'react-router-dom';
import { PAGE_TITLES } from '@common/page-titles.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

function isSameOriginReferrer(): boolean {
  try {
    return document.referrer !== '' && new URL(document.referrer).origin === window.location.origin;
  } catch {
    return false;
  }
}

export function NotFoundScreen() {
  useDocumentTitle(PAGE_TITLES.notFound);
  const navigate = useNavigate();

  function goBack() {
    // React Router numbers its history entries (`idx`); 0 is the first one in this document.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) {
      navigate(-1);
    } else if (window.history.length > 1 && isSameOriginReferrer()) {
      window.history.back(); // came from another LuxeMotors page by a full page load
    } else {
      navigate('/'); // opened straight on a dead link: nowhere in the app to go back to
    }
  }

  return (
    <section className="container page not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="page-title">
        Page not found
      </h1>
      <p className="muted">
        The page you are looking for does not exist or has moved.
      </p>
      <div className="not-found__actions">
        <button type="button" className="btn btn--dark" onClick={() => navigate('/')}>
          Return Home
        </button>
        <button type="button" className="btn btn--outline" onClick={goBack}>
          Go Back
        </button>
      </div>
    </section>
  );
}
