import { useCallback, useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import './tabs.css';

export interface TabDefinition<Id extends string> {
  id: Id;
  label: ReactNode;
}

/**
 * WAI-ARIA tabs: a tablist of buttons, arrow keys / Home / End move and select (automatic
 * activation), and one tabpanel per tab of which only the selected one is rendered.
 */
export function Tabs<Id extends string>({
  tabs,
  active,
  onSelect,
  label,
  renderPanel,
  className,
}: {
  tabs: readonly TabDefinition<Id>[];
  active: Id;
  onSelect: (id: Id) => void;
  /** Accessible name of the tablist. */
  label: string;
  renderPanel: (id: Id) => ReactNode;
  className?: string;
}) {
  const baseId = useId();
  const tabRefs = useRef(new Map<Id, HTMLButtonElement>());
  const listRef = useRef<HTMLDivElement>(null);

  // On a narrow screen the tab list scrolls sideways: keep the selected tab in sight (say when a
  // link opened a later tab), without scrolling the page itself.
  useEffect(() => {
    const list = listRef.current;
    const tab = tabRefs.current.get(active);
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const left = tab.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + tab.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = Math.max(0, left - (list.clientWidth - tab.offsetWidth) / 2);
    }
  }, [active]);
  const tabId = (id: Id) => `${baseId}-tab-${id}`;
  const panelId = (id: Id) => `${baseId}-panel-${id}`;

  function select(id: Id, focus: boolean) {
    onSelect(id);
    if (focus) tabRefs.current.get(id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((t) => t.id === active);
    const count = tabs.length;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % count
        : event.key === 'ArrowLeft'
          ? (index - 1 + count) % count
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    select(tabs[next]!.id, true);
  }

  return (
    <div className={className ? `tabs ${className}` : 'tabs'}>
      <div ref={listRef} role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) tabRefs.current.set(tab.id, el);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={selected}
              aria-controls={panelId(tab.id)}
              tabIndex={selected ? 0 : -1}
              className="tabs__tab"
              onClick={() => select(tab.id, false)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          tabIndex={0}
          hidden={tab.id !== active}
          className="tabs__panel"
        >
          {tab.id === active && renderPanel(tab.id)}
        </div>
      ))}
    </div>
  );
}

/**
 * The selected tab kept in the URL (`?tab=...`, omitted for the first tab), so a link can open a
 * given tab and a reload keeps it. Switching tabs replaces the history entry and keeps the scroll.
 */
export function useTabParam<Id extends string>(ids: readonly Id[], param = 'tab'): [Id, (id: Id) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(param);
  const first = ids[0]!;
  const active = ids.find((id) => id === raw) ?? first;
  const setActive = useCallback(
    (id: Id) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id === first) next.delete(param);
          else next.set(param, id);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [first, param, setParams],
  );
  return [active, setActive];
}
