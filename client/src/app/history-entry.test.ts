import { describe, expect, it } from 'vitest';
import { stampHistoryEntry } from './history-entry.ts';

function fakeHistory(state: unknown) {
  const calls: unknown[] = [];
  const history = {
    state,
    replaceState(next: unknown) {
      calls.push(next);
      history.state = next;
    },
  };
  return { history: history as unknown as History, calls };
}

describe('stampHistoryEntry', () => {
  it('gives a freshly loaded entry a key of its own', () => {
    const first = fakeHistory(null);
    const second = fakeHistory(null);
    stampHistoryEntry(first.history);
    stampHistoryEntry(second.history);
    const a = (first.history.state as { key: string }).key;
    const b = (second.history.state as { key: string }).key;
    expect(a).toMatch(/^[a-z0-9]+$/);
    expect(a).not.toBe(b);
    expect(first.history.state).toMatchObject({ usr: null, idx: 0 });
  });

  it('keeps the key of an entry that has one (reload, Back/Forward) and its other state', () => {
    const { history, calls } = fakeHistory({ usr: { from: '/x' }, key: 'abc123', idx: 4 });
    stampHistoryEntry(history);
    expect(calls).toEqual([]);
    expect(history.state).toEqual({ usr: { from: '/x' }, key: 'abc123', idx: 4 });
  });

  it('keeps the router index of an entry without a key', () => {
    const { history } = fakeHistory({ usr: null, idx: 2 });
    stampHistoryEntry(history);
    expect(history.state).toMatchObject({ usr: null, idx: 2 });
    expect(typeof (history.state as { key: unknown }).key).toBe('string');
  });
});
