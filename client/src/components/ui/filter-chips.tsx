/** A row of toggle chips choosing one filter; the chosen one is pressed. */
export function FilterChips<V extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** The group's accessible name ("Category"). */
  label: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <div className="cluster filter-group" role="group" aria-label={label}>
      {options.map((option) => (
        <button key={option.value} type="button" className="chip" aria-pressed={value === option.value} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}
