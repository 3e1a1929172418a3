import { describe, expect, it } from 'vitest';
import { CAR_VIEWS, carImagePath, isCarBodyStyle, isCarView, isColorHex } from './car-images.ts';
import { CAR_BODY_STYLES } from './listing.ts';

describe('carImagePath', () => {
  it('formats the media path with a lower-case colour', () => {
    expect(carImagePath('sports', 'C0121C', 'side')).toBe('/media/cars/sports/c0121c/side.svg');
    expect(carImagePath('suv', '1f3a93', 'interior')).toBe('/media/cars/suv/1f3a93/interior.svg');
    expect(carImagePath('wagon', '1f3a93', 'rear')).toBe('/media/cars/wagon/1f3a93/rear.svg');
  });

  it('refuses an illustration that does not exist', () => {
    expect(() => carImagePath('truck' as never, 'c0121c', 'side')).toThrow(Error);
    expect(() => carImagePath('sports', '#c0121c', 'side')).toThrow(Error);
    expect(() => carImagePath('sports', 'c0121c', 'top' as never)).toThrow(Error);
  });
});

describe('guards', () => {
  it('isColorHex accepts exactly six hex digits', () => {
    expect(isColorHex('a1B2c3')).toBe(true);
    expect(isColorHex('000000')).toBe(true);
    expect(isColorHex('#a1b2c3')).toBe(false);
    expect(isColorHex('abc')).toBe(false);
    expect(isColorHex('zzzzzz')).toBe(false);
    expect(isColorHex('a1b2c3d')).toBe(false);
    expect(isColorHex('')).toBe(false);
  });

  it('isCarBodyStyle and isCarView recognise only the known values', () => {
    for (const s of CAR_BODY_STYLES) expect(isCarBodyStyle(s)).toBe(true);
    for (const v of CAR_VIEWS) expect(isCarView(v)).toBe(true);
    expect(isCarBodyStyle('truck')).toBe(false);
    expect(isCarBodyStyle('Sports')).toBe(false);
    expect(isCarView('top')).toBe(false);
    expect(isCarView('')).toBe(false);
  });
});
