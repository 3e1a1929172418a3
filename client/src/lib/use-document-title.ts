import { useEffect } from 'react';

export const APP_NAME = 'LuxeMotors';

/** "Cars" → "Cars — LuxeMotors"; an empty title gives just the app name. */
export function formatDocumentTitle(title: string): string {
  const trimmed = title.trim();
  return trimmed ? `${trimmed} — ${APP_NAME}` : APP_NAME;
}

/** Sets `document.title` for the current screen. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = formatDocumentTitle(title);
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
