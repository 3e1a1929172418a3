import { describe, expect, it } from 'vitest';
import { checkVin, modelYearCode, vinCheckDigit } from '@common/vin.ts';
import { SAMPLE_CARS } from './sample-data.ts';
import { SAMPLE_DOSSIERS } from './sample-dossiers.ts';

describe('the sample dossiers', () => {
  it('give every sample car a VIN valid for its make and year, with a right check digit and year character', () => {
    for (const car of SAMPLE_CARS) {
      const dossier = SAMPLE_DOSSIERS[car.key];
      expect(dossier, car.key).toBeDefined();
      expect(checkVin(dossier!.vin, car), car.key).toMatchObject({ ok: true });
      expect(vinCheckDigit(dossier!.vin), car.key).toBe(dossier!.vin[8]);
      expect(dossier!.vin[9], car.key).toBe(modelYearCode(car.year));
    }
  });
});
