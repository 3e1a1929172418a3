/**
 * The rules a vehicle identification number and a chassis number follow, shared by the server
 * (which refuses a wrong one with 400 naming `vin` or `chassisNumber`) and the selling form
 * (which says the same sentence as the seller types).
 *
 * - A VIN is 17 characters of A-H, J-N, P, R-Z and 0-9: I, O and Q never appear (ISO 3779).
 * - A North American VIN (first character 1 to 5) carries a check digit in position 9, computed
 *   as 49 CFR 565.15 describes; its position 10 is the model year, in a 30-year cycle.
 * - Positions 1 to 3 are the maker's code (the WMI). Where the code is one of a maker the
 *   catalogue knows, it must be that of the car's make.
 */

export const VIN_LENGTH = 17;
/** What a VIN is made of: letters without I, O and Q, and digits. */
export const VIN_PATTERN = '^[A-HJ-NPR-Z0-9]{17}$';
/** A chassis number (older cars, Japanese market): letters, digits and inner hyphens, at most 20. */
export const CHASSIS_NUMBER_MAX = 20;
export const CHASSIS_NUMBER_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,18}[A-Za-z0-9])?$';

export const VIN_CHECKS = ['valid', 'not_applicable'] as const;
/** `valid`: a North American VIN whose check digit is right; `not_applicable`: others. */
export type VinCheck = (typeof VIN_CHECKS)[number];

export const VIN_MESSAGES = {
  format: 'A VIN is 17 letters and digits, without I, O or Q',
  checkDigit: 'This VIN does not add up: check each character (its check digit, the 9th, does not match)',
  chassisNumber: 'A chassis number is 1 to 20 letters, digits and hyphens, without spaces',
} as const;

/** The value of each character in the check-digit sum (49 CFR 565.15, table IV). */
const TRANSLITERATION: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
/** The weight of each position (table V); position 9 is the check digit itself. */
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/**
 * Maker codes (WMI) of the makes the catalogue sells, from the makers' published VIN
 * decoders. Keys are make keys (see `makeKey`).
 */
export const MAKER_CODES: Record<string, readonly string[]> = {
  porsche: ['WP0', 'WP1'],
  ferrari: ['ZFF'],
  lamborghini: ['ZHW', 'ZA9'],
  mercedes: ['WDB', 'WDC', 'WDD', 'W1K', 'W1N', 'W1X', '4JG', '55S'],
  bmw: ['WBA', 'WBS', 'WBY', '5UX', '5YM'],
  astonmartin: ['SCF'],
  bentley: ['SCB'],
  rollsroyce: ['SCA', 'SLA'],
  mclaren: ['SBM'],
  audi: ['WAU', 'WUA', 'WA1'],
  maserati: ['ZAM', 'ZN6'],
  jaguar: ['SAJ'],
  landrover: ['SAL'],
  lotus: ['SCC'],
  lexus: ['JTH', 'JTJ', '2T2'],
  cadillac: ['1G6', '1GY'],
  chevrolet: ['1G1', '1GC', '1GN'],
};

/** Names people give one maker: "Mercedes-AMG" and "Mercedes-Benz" are both Mercedes. */
const MAKE_ALIASES: Record<string, string> = {
  mercedesamg: 'mercedes',
  mercedesbenz: 'mercedes',
  amg: 'mercedes',
  rollsroycemotorcars: 'rollsroyce',
  chevy: 'chevrolet',
};

/** A make as the maker-code table names it: lower case, letters and digits only, aliases folded. */
export function makeKey(make: string): string {
  const key = make
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return MAKE_ALIASES[key] ?? key;
}

const MAKER_OF_CODE = new Map(Object.entries(MAKER_CODES).flatMap(([maker, codes]) => codes.map((code) => [code, maker] as const)));

/** The make key a VIN's maker code belongs to, when the catalogue knows it. */
export function makerOfVin(vin: string): string | null {
  return MAKER_OF_CODE.get(vin.slice(0, 3).toUpperCase()) ?? null;
}

/** The maker codes of a make, when the catalogue knows them. */
export function makerCodesOf(make: string): readonly string[] | null {
  return MAKER_CODES[makeKey(make)] ?? null;
}

export function isVinShaped(vin: string): boolean {
  return new RegExp(VIN_PATTERN).test(vin);
}

export function isChassisNumber(value: string): boolean {
  return new RegExp(CHASSIS_NUMBER_PATTERN).test(value);
}

/** North American VINs (first character 1 to 5) carry the check digit and the model year. */
export function isNorthAmericanVin(vin: string): boolean {
  return /^[1-5]/.test(vin);
}

/** The check digit position 9 must hold: 0-9, or X for a remainder of 10. Input must be VIN-shaped. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let position = 0; position < VIN_LENGTH; position++) {
    const character = vin[position]!;
    const value = /[0-9]/.test(character) ? Number(character) : TRANSLITERATION[character]!;
    sum += value * WEIGHTS[position]!;
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** The 30 model-year characters in order: A is 1980 (and 2010), Y 2000 (2030), 1 2001 (2031). */
export const MODEL_YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';
/** The first model year with 17-character VINs. */
export const FIRST_VIN_MODEL_YEAR = 1981;

/** The position-10 character of a model year (the cycle repeats every 30 years). */
export function modelYearCode(year: number): string {
  return MODEL_YEAR_CODES[(((year - 1980) % 30) + 30) % 30]!;
}

export type VinVerdict = { ok: true; vin: string; vinCheck: VinCheck } | { ok: false; message: string };

/**
 * Judge a VIN for a car of `make` and `year`: its characters, its maker code against the make,
 * and for a North American VIN the check digit and the model-year character. Case does not
 * matter; the answer's `vin` is in capitals.
 */
export function checkVin(input: string, car: { make: string; year: number }): VinVerdict {
  const vin = input.trim().toUpperCase();
  if (!isVinShaped(vin)) return { ok: false, message: VIN_MESSAGES.format };

  const maker = makerOfVin(vin);
  if (maker !== null && maker !== makeKey(car.make)) {
    return { ok: false, message: `This VIN's maker code (${vin.slice(0, 3)}) is not ${car.make}'s` };
  }

  if (!isNorthAmericanVin(vin)) return { ok: true, vin, vinCheck: 'not_applicable' };

  if (vin[8] !== vinCheckDigit(vin)) return { ok: false, message: VIN_MESSAGES.checkDigit };
  if (car.year >= FIRST_VIN_MODEL_YEAR && vin[9] !== modelYearCode(car.year)) {
    return { ok: false, message: `This VIN's model-year character (${vin[9]}, the 10th) does not match ${car.year}: a ${car.year} car has ${modelYearCode(car.year)}` };
  }
  return { ok: true, vin, vinCheck: 'valid' };
}

/** How a VIN's check reads on the car page. */
export const VIN_CHECK_LABELS: Record<VinCheck, string> = {
  valid: 'Check digit verified',
  not_applicable: 'Check digit not used outside North America',
};
