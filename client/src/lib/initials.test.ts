import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('builds initials from the first and last word', () => {
    expect(initials('Ann Marie Driver')).toBe('AD');
    expect(initials('cher')).toBe('C');
    expect(initials('  ')).toBe('?');
    expect(initials('émile zola')).toBe('ÉZ');
    expect(initials("Kevin O'Brien")).toBe('KO');
  });
});
