import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;

/**
 * False on the server and while React hydrates a page the server drew; true right after, and in
 * every render of a screen drawn in the browser.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}

/**
 * Props for an element that depends on this browser's session (its sign-in prompts, the bid form,
 * the watch button): the server cannot see the session and draws it signed out, so until the
 * app has taken over the element keeps its place but stays invisible (global.css), and a
 * signed-in visitor never sees "Sign In" flash before their name.
 */
export function useSessionDependent(): { 'data-awaiting-session'?: '' } {
  return useHydrated() ? {} : { 'data-awaiting-session': '' };
}
