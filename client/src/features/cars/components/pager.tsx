import './pager.css';

export function Pager({
  page,
  pages,
  onPageChange,
}: {
  page: number;
  pages: number;
  onPageChange: (page: number) => void;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pagination" data-testid="pager">
      <button
        type="button"
        className="btn btn--outline"
        disabled={page <= 1}
        onClick={() => onPageChange(Math.min(page - 1, pages))}
      >
        Previous
      </button>
      <span className="pager__status" aria-live="polite">{`Page ${page} of ${pages}`}</span>
      <button
        type="button"
        className="btn btn--outline"
        disabled={page >= pages}
        onClick={() => onPageChange(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
