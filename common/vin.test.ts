import { describe, expect, it } from 'vitest';
import { checkVin, isChassisNumber, makeKey, makerOfVin, modelYearCode, vinCheckDigit } from './vin.ts';

/**
 * The valid VINs below were built by hand from each maker's layout and their check digits
 * worked out with the 49 CFR 565.15 tables; the classic textbook example 1M8GDM9AXKP042788
 * (check digit X) anchors the arithmetic. Only North American VINs (made in the US, Canada or
 * Mexico) are held to their check digit, so only theirs comes out 'valid'.
 */
const VINS = [
  { vin: '1G1YB2D4XL5100001', make: 'Chevrolet', year: 2020, vinCheck: 'valid' },
  { vin: '1G6DP5RKXM0100002', make: 'Cadillac', year: 2021, vinCheck: 'valid' },
  { vin: '1GYS4BKL9PR123456', make: 'Cadillac', year: 2023, vinCheck: 'valid' },
  { vin: '5YMJU0C02N9J12345', make: 'BMW', year: 2022, vinCheck: 'valid' },
  { vin: '4JGFB8KB2MA123456', make: 'Mercedes-Benz', year: 2021, vinCheck: 'valid' },
  { vin: '2T2HZMDA8LC123456', make: 'Lexus', year: 2020, vinCheck: 'valid' },
  { vin: 'WP0AC2A94NS270123', make: 'Porsche', year: 2022, vinCheck: 'not_applicable' },
  { vin: 'ZFF95NLAXM0261234', make: 'Ferrari', year: 2021, vinCheck: 'not_applicable' },
  { vin: 'ZHWUF5ZF9MLA15678', make: 'Lamborghini', year: 2021, vinCheck: 'not_applicable' },
  { vin: 'SBM14DCA9LW004321', make: 'McLaren', year: 2020, vinCheck: 'not_applicable' },
  { vin: 'WUAKBAFX9L7901234', make: 'Audi', year: 2020, vinCheck: 'not_applicable' },
  { vin: 'SCFRMHAVXMGR01234', make: 'Aston Martin', year: 2021, vinCheck: 'not_applicable' },
  { vin: 'WBSAE0C00NCJ12345', make: 'BMW', year: 2022, vinCheck: 'not_applicable' },
  { vin: 'SCBDG4ZG8NC012345', make: 'Bentley', year: 2022, vinCheck: 'not_applicable' },
  { vin: 'SLATV4C02PU212345', make: 'Rolls-Royce', year: 2023, vinCheck: 'not_applicable' },
  { vin: 'W1NYC7HJ7PX412345', make: 'Mercedes-AMG', year: 2023, vinCheck: 'not_applicable' },
  { vin: 'ZAM56YPS0M1345678', make: 'Maserati', year: 2021, vinCheck: 'not_applicable' },
] as const;
const NORTH_AMERICAN = VINS.filter((car) => car.vinCheck === 'valid');

describe('the VIN check digit', () => {
  it('follows the 49 CFR 565 tables', () => {
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(vinCheckDigit('11111111111111111')).toBe('1');
    for (const { vin } of VINS) expect(vinCheckDigit(vin), vin).toBe(vin[8]);
  });
});

describe('checkVin', () => {
  it.each(VINS)('accepts $vin ($make, $year) as $vinCheck', (car) => {
    expect(checkVin(car.vin, car)).toEqual({ ok: true, vin: car.vin, vinCheck: car.vinCheck });
  });

  it('reads lower case', () => {
    expect(checkVin('wp0ac2a94ns270123', { make: 'Porsche', year: 2022 })).toMatchObject({ ok: true, vin: 'WP0AC2A94NS270123' });
  });

  it('refuses the wrong length and the letters I, O and Q', () => {
    const car = { make: 'Chevrolet', year: 2020 };
    for (const vin of ['1G1YB2D4XL510000', '1G1YB2D4XL51000011', '1G1YB2D4XL51I0001', '1G1YB2D4XL51O0001', '1G1YB2D4XL51Q0001', '1G1YB2D4XL5 00001', ''])
      expect(checkVin(vin, car).ok, vin).toBe(false);
  });

  it('refuses a wrong check digit on a North American VIN, whatever the wrong digit', () => {
    for (const car of NORTH_AMERICAN) {
      for (const digit of '0123456789X') {
        if (digit === car.vin[8]) continue;
        const vin = car.vin.slice(0, 8) + digit + car.vin.slice(9);
        expect(checkVin(vin, car), vin).toMatchObject({ ok: false, message: expect.stringContaining('check digit') });
      }
    }
  });

  it('refuses one changed character of a North American VIN', () => {
    const car = NORTH_AMERICAN[0]!;
    expect(checkVin('1G1YB2D4XL5100002', car).ok).toBe(false);
  });

  it("refuses a maker code that is another make's", () => {
    expect(checkVin('WP0AC2A94NS270123', { make: 'Ferrari', year: 2022 })).toMatchObject({ ok: false, message: expect.stringContaining('WP0') });
    expect(checkVin('ZFF95NLAXM0261234', { make: 'Lamborghini', year: 2021 }).ok).toBe(false);
    expect(checkVin('1G1YB2D4XL5100001', { make: 'Cadillac', year: 2020 }).ok).toBe(false);
  });

  it('lets a maker code the catalogue does not know pass for any make', () => {
    expect(checkVin('VF1AB000000000000', { make: 'Alpine', year: 2019 })).toMatchObject({ ok: true, vinCheck: 'not_applicable' });
  });

  it('refuses a model-year character that disagrees with the year', () => {
    expect(checkVin('1G1YB2D4XL5100001', { make: 'Chevrolet', year: 2021 })).toMatchObject({ ok: false, message: expect.stringContaining('model-year') });
    expect(checkVin('1G6DP5RKXM0100002', { make: 'Cadillac', year: 1991 }).ok).toBe(true); // M is 1991 and 2021
  });
});

describe('model-year characters', () => {
  it('run A (1980) to Y (2000), 1 to 9 (2001-2009), then again', () => {
    expect(modelYearCode(1980)).toBe('A');
    expect(modelYearCode(2000)).toBe('Y');
    expect(modelYearCode(2001)).toBe('1');
    expect(modelYearCode(2009)).toBe('9');
    expect(modelYearCode(2010)).toBe('A');
    expect(modelYearCode(2020)).toBe('L');
    expect(modelYearCode(2023)).toBe('P');
    expect(modelYearCode(2026)).toBe('T');
  });
});

describe('makes and maker codes', () => {
  it('fold the names people use', () => {
    expect(makeKey('Mercedes-AMG')).toBe('mercedes');
    expect(makeKey('Rolls-Royce')).toBe('rollsroyce');
    expect(makeKey('Aston Martin')).toBe('astonmartin');
    expect(makerOfVin('scfrmhavxmgr01234')).toBe('astonmartin');
    expect(makerOfVin('XYZ00000000000000')).toBeNull();
  });
});

describe('chassis numbers', () => {
  it('are 1 to 20 letters, digits and inner hyphens', () => {
    for (const ok of ['BNR32-305156', '911-300123', 'A', '12345678901234567890']) expect(isChassisNumber(ok), ok).toBe(true);
    for (const bad of ['BNR32 305156', '123456789012345678901', '', '-BNR32', 'BNR32-', 'BNR32/1']) expect(isChassisNumber(bad), bad).toBe(false);
  });
});
