import { useEffect } from 'react';
import { documentTitle } from '@common/page-titles.ts';

/** Sets `document.title` for the current screen: "Cars" → "Cars — LuxeMotors". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/**
 * Sets the title from a branch of a screen (a loading or error state): a parent's effect would
 * run after, and win over, its child's.
 */
export function DocumentTitle({ title }: { title: string }): null {
  useDocumentTitle(title);
  return null;
}
