import { useId, useState, type FormEvent } from 'react';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import './listing-search.css';

/**
 * Search box of the hero. Holds the draft text; the listing query only changes on
 * Enter or the Search button. Remount it (key) to re-sync with the URL.
 */
export function ListingSearch({
  initialValue,
  onSearch,
}: {
  initialValue: string;
  onSearch: (search: string) => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState(initialValue);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(draft);
  }

  return (
    <form role="search" className="hero-search" onSubmit={handleSubmit}>
      <label htmlFor={inputId} className="sr-only">
        Search vehicles
      </label>
      <SearchIcon className="hero-search__icon" size={20} />
      <input
        id={inputId}
        type="search"
        name="search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="Search by make, model, or year..."
        autoComplete="off"
        enterKeyHint="search"
        maxLength={100}
      />
      <button type="submit" className="btn btn--gold">
        Search
      </button>
    </form>
  );
}
