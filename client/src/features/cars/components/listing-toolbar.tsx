import { useId } from 'react';
import { FilterChips } from '../../../components/ui/filter-chips.tsx';
import { SelectOptions } from '../../../components/ui/form-field.tsx';
import { LISTING_SORTS, type ListingFilter, type ListingSort } from '@common/listing.ts';
import { FILTER_OPTIONS, SORT_OPTIONS } from '../lib/listing-query.ts';
import './listing-toolbar.css';

export function ListingToolbar({
  filter,
  sort,
  onFilterChange,
  onSortChange,
}: {
  filter: ListingFilter;
  sort: ListingSort;
  onFilterChange: (filter: ListingFilter) => void;
  onSortChange: (sort: ListingSort) => void;
}) {
  const sortId = useId();
  return (
    <div className="split-row listing-toolbar">
      <FilterChips label="Category" options={FILTER_OPTIONS} value={filter} onChange={onFilterChange} />
      <div className="sort-control">
        <label htmlFor={sortId}>Sort by</label>
        <select
          id={sortId}
          value={sort}
          onChange={(event) => {
            const value = event.target.value;
            const next = LISTING_SORTS.find((s) => s === value);
            if (next) onSortChange(next);
          }}
        >
          <SelectOptions options={SORT_OPTIONS} />
        </select>
      </div>
    </div>
  );
}
