import { describe, expect, it } from 'vitest';
import { durationInWords } from './durations.ts';

describe('durationInWords', () => {
  it('says each unit that is there, singular or plural, largest first', () => {
    expect(durationInWords(3600)).toBe('1 hour');
    expect(durationInWords(600)).toBe('10 minutes');
    expect(durationInWords(90)).toBe('1 minute 30 seconds');
    expect(durationInWords(7261)).toBe('2 hours 1 minute 1 second');
    expect(durationInWords(41)).toBe('41 seconds');
  });

  it('says nothing left as 0 seconds, and rounds fractions', () => {
    expect(durationInWords(0)).toBe('0 seconds');
    expect(durationInWords(-5)).toBe('0 seconds');
    expect(durationInWords(59.6)).toBe('1 minute');
  });
});
