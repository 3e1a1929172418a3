import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Shown when a screen throws while rendering or its code chunk fails to load. */
export function RouteError() {
  useDocumentTitle('Something went wrong');
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <section className="container page not-found" aria-labelledby="route-error-title">
      <h1 id="route-error-title" className="page-title">
        Something went wrong
      </h1>
      <p className="muted">
        This page could not be displayed{detail ? ` (${detail})` : ''}. Please try again.
      </p>
      <div className="not-found__actions">
        <button type="button" className="btn btn--dark" onClick={() => window.location.reload()}>
          Reload Page
        </button>
        <a className="btn btn--outline" href="/">
          Return Home
        </a>
      </div>
    </section>
  );
}
