import type { ReactNode } from 'react';
import './table-frame.css';

/**
 * A console table in a frame of its own that scrolls sideways on a narrow screen (the page does
 * not). The frame is a named, focusable region, so keyboard users can scroll it too.
 */
export function TableFrame({ caption, captionHidden = false, children, testId }: { caption: string; captionHidden?: boolean; children: ReactNode; testId?: string }) {
  return (
    <div className="table-frame" role="region" aria-label={caption} tabIndex={0} data-testid={testId}>
      <table className="console-table">
        <caption className={captionHidden ? 'sr-only' : 'console-table__caption'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}
