import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { DocumentTitle, useDocumentTitle } from '../../lib/use-document-title.ts';
import type { Resource } from '../../lib/use-resource.ts';
import { LoadingStatus } from './spinner.tsx';

/** Why something could not be loaded, with a Retry button. `size="sm"` inside a panel. */
export function ErrorNotice({ message, onRetry, size = 'sm' }: { message: string; onRetry: () => void; size?: 'sm' | 'md' }) {
  return (
    <div className="notice notice--error" role="alert">
      <p>{message}</p>
      <button type="button" className={size === 'sm' ? 'btn btn--dark btn--sm' : 'btn btn--dark'} onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** Loading and error states of a resource (see use-resource.ts); renders `children(data)` once loaded. */
export function Loaded<T>({
  resource,
  retry,
  label,
  children,
}: {
  resource: Resource<T>;
  retry: () => void;
  /** What the spinner says: "Loading your bids...". */
  label: string;
  children: (data: T) => ReactNode;
}) {
  if (resource.status === 'loading') return <LoadingStatus label={label} />;
  if (resource.status === 'error') return <ErrorNotice message={resource.message} onRetry={retry} />;
  return <>{children(resource.data)}</>;
}

/** A whole screen waiting for what it shows (a car, an order), titled meanwhile. */
export function ScreenLoading({ title, label }: { title: string; label: string }) {
  return (
    <div className="container page">
      <DocumentTitle title={title} />
      <LoadingStatus label={label} />
    </div>
  );
}

/** A whole screen whose content could not be loaded, with Retry. */
export function ScreenError({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <section className="container page">
      <DocumentTitle title={title} />
      <ErrorNotice message={message} onRetry={onRetry} size="md" />
    </section>
  );
}

/** A screen for something that is not there (or not the viewer's), titled after it, with the way back. */
export function NotFoundPage({
  titleId,
  title,
  children,
  action,
}: {
  /** The heading's id: stable, for `aria-labelledby`. */
  titleId: string;
  title: string;
  children: ReactNode;
  action: { to: string; label: string };
}) {
  useDocumentTitle(title);
  return (
    <section className="container page not-found" aria-labelledby={titleId}>
      <h1 id={titleId} className="page-title">
        {title}
      </h1>
      <p className="muted">{children}</p>
      <div className="not-found__actions">
        <Link to={action.to} className="btn btn--dark">
          {action.label}
        </Link>
      </div>
    </section>
  );
}
