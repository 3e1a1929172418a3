/**
 * Scroll positions are remembered per history entry, under the entry's router key. Entries the
 * router pushes get a unique key, but the entry a page was freshly loaded into has none, and the
 * router then calls it 'default' — the same name for every fresh load. Positions saved under it
 * would be "restored" on the next fresh load of any page. Stamping that entry with a key of its
 * own (kept by the browser across reloads and Back/Forward, like the router's own keys) means a
 * fresh load starts at the top and only a return to an entry restores its position.
 *
 * Must run before the router is created, which reads the key from `history.state`.
 */
export function stampHistoryEntry(history: History = window.history): void {
  const state: unknown = history.state;
  const record = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  if (typeof record.key === 'string' && record.key !== '') return;
  const key = Math.random().toString(36).slice(2, 10);
  try {
    history.replaceState({ usr: null, idx: 0, ...record, key }, '');
  } catch {
    // Some embedded browsers refuse replaceState; the page still works, just with the stock key.
  }
}
