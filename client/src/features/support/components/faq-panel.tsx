import { useId, useMemo, useState } from 'react';
import { ChevronDownIcon, SearchIcon } from '../../../components/ui/icons.tsx';
import { FAQ, searchFaq } from '../lib/faq.ts';

/** Searchable FAQ; each question is a disclosure button controlling its answer region. */
export function FaqPanel({ onAskUs }: { onAskUs: () => void }) {
  const searchId = useId();
  const baseId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const results = useMemo(() => searchFaq(FAQ, query), [query]);

  function toggle(id: string) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <div className="faq">
      <div className="faq__search">
        <label htmlFor={searchId} className="sr-only">
          Search questions
        </label>
        <SearchIcon size={20} className="input-adornment" />
        <input
          id={searchId}
          className="input faq__search-input"
          type="search"
          placeholder="Search the FAQ"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
          maxLength={100}
        />
      </div>
      <p className="faq__count" role="status">
        {query.trim()
          ? `${results.length} ${results.length === 1 ? 'question matches' : 'questions match'} “${query.trim()}”`
          : `${FAQ.length} frequently asked questions`}
      </p>

      {results.length === 0 ? (
        <div className="empty-state faq__empty">
          <p className="empty-state__title">{`No questions match “${query.trim()}”`}</p>
          <p className="muted">Try other words, or ask our team directly.</p>
          <div className="faq__empty-actions">
            <button type="button" className="btn btn--outline" onClick={() => setQuery('')}>
              Clear Search
            </button>
            <button type="button" className="btn btn--dark" onClick={onAskUs}>
              Submit a Ticket
            </button>
          </div>
        </div>
      ) : (
        <ul className="faq__list">
          {results.map((entry) => {
            const expanded = open.has(entry.id);
            const buttonId = `${baseId}-${entry.id}-q`;
            const panelId = `${baseId}-${entry.id}-a`;
            return (
              <li key={entry.id} className={expanded ? 'faq__item is-open' : 'faq__item'} data-testid="faq-item">
                <h3 className="faq__question">
                  <button
                    id={buttonId}
                    type="button"
                    className="faq__toggle"
                    aria-expanded={expanded}
                    aria-controls={panelId}
                    onClick={() => toggle(entry.id)}
                  >
                    <span className="caps-label caps-label--sm faq__topic">{entry.topic}</span>
                    <span className="faq__question-text">{entry.question}</span>
                    <ChevronDownIcon size={20} className="faq__chevron" />
                  </button>
                </h3>
                <div id={panelId} role="region" aria-labelledby={buttonId} className="faq__answer" hidden={!expanded}>
                  {entry.answer.map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
