import { describe, expect, it } from 'vitest';
import { carName } from './dashboard-format.ts';

describe('carName', () => {
  it('reads year, make and model', () => {
    expect(carName({ year: 2022, make: 'Ferrari', model: '296 GTB' })).toBe('2022 Ferrari 296 GTB');
  });
});
