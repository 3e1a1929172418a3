import './spinner.css';

/** A status line with a small spinner; announced politely to screen readers. */
export function LoadingStatus({ label }: { label: string }) {
  return (
    <div className="loading-status" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
