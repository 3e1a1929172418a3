import { describe, expect, it } from 'vitest';
import { formatDate, formatRelativeTime } from './relative-time.ts';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('formatRelativeTime', () => {
  it('words recent times', () => {
    expect(formatRelativeTime(ago(5), NOW)).toBe('just now');
    expect(formatRelativeTime(ago(5 * 60), NOW)).toBe('5 min ago');
    expect(formatRelativeTime(ago(3 * 3600), NOW)).toBe('3 h ago');
    expect(formatRelativeTime(ago(30 * 3600), NOW)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86400), NOW)).toBe('3 days ago');
  });

  it('falls back to the date after a week, and to nothing for garbage', () => {
    expect(formatRelativeTime('2025-01-02T08:00:00Z', NOW)).toBe('Jan 2, 2025');
    expect(formatRelativeTime('not a date', NOW)).toBe('');
  });

  it('a clock slightly behind the server still says just now', () => {
    expect(formatRelativeTime(new Date(NOW + 10_000).toISOString(), NOW)).toBe('just now');
  });
});

describe('formatDate', () => {
  it('shows the stored calendar date', () => {
    expect(formatDate('2024-08-15T00:00:00Z')).toBe('Aug 15, 2024');
  });
});
