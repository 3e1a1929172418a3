import type { ReactNode } from 'react';
import './table-frame.css';

/** A column's heading: its label, `num` for right-aligned figures, `hidden` for a label only screen readers need (a column of buttons). */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

/**
 * A console table in a frame of its own that scrolls sideways on a narrow screen (the page does
 * not). The frame is a named, focusable region, so keyboard users can scroll it too. `columns`
 * head the table; `children` are its body's rows.
 */
export function TableFrame({
  caption,
  captionHidden = false,
  columns,
  children,
  testId,
}: {
  caption: string;
  captionHidden?: boolean;
  columns: readonly Column[];
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="table-frame" role="region" aria-label={caption} tabIndex={0} data-testid={testId}>
      <table className="console-table">
        <caption className={captionHidden ? 'sr-only' : 'console-table__caption'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const { label, num = false, hidden = false } = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={label} scope="col" className={num ? 'num' : undefined}>
                  {hidden ? <span className="sr-only">{label}</span> : label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
