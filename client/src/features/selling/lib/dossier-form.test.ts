import { describe, expect, it } from 'vitest';
import { VIN_MESSAGES } from '@common/vin.ts';
import {
  buildDossierEdit,
  documentFileProblem,
  dossierErrorsFromDetails,
  dossierFormValues,
  EMPTY_DOSSIER,
  emptyServiceRecord,
  entryErrorKey,
  kindFromFileName,
  titleFromFileName,
  validateDossier,
  vinStatus,
  type DossierFormValues,
} from './dossier-form.ts';

const CORVETTE = { make: 'Chevrolet', year: 2023 };
/** Check digit 4 in position 9, model year P (2023), maker code 1G1 (Chevrolet). */
const CORVETTE_VIN = '1G1YC2D44P5500123';

const filled: DossierFormValues = {
  ...EMPTY_DOSSIER,
  vin: CORVETTE_VIN.toLowerCase(),
  knownFlaws: [
    { key: 'a', text: '  Stone chips  ' },
    { key: 'b', text: '   ' },
    { key: 'c', id: 7, text: 'Curb rash' },
  ],
  serviceRecords: [
    { ...emptyServiceRecord('r1'), date: '2024-05-10', mileage: '3,120', shop: ' Earnhardt ', work: 'Oil', cost: '$389', document: 'local:d1' },
    emptyServiceRecord('blank'),
  ],
};

describe('the dossier form', () => {
  it('sends every list in full, blank lines left out, ids kept, numbers read as people type them', () => {
    const { body, origin } = buildDossierEdit(filled, (reference) => (reference === 'local:d1' ? 42 : undefined));
    expect(body).toEqual({
      vin: CORVETTE_VIN,
      chassisNumber: null,
      knownFlaws: [{ text: 'Stone chips' }, { id: 7, text: 'Curb rash' }],
      modifications: [],
      itemsIncluded: [],
      serviceRecords: [{ date: '2024-05-10', mileage: 3120, shop: 'Earnhardt', work: 'Oil', cost: 389, documentId: 42 }],
    });
    expect(origin.knownFlaws).toEqual(['a', 'c']);
    expect(origin.serviceRecords).toEqual(['r1']);
  });

  it('clears the VIN when the car is identified by its chassis number', () => {
    const { body } = buildDossierEdit({ ...filled, identity: 'chassis', chassisNumber: ' BNR32-305156 ' }, () => undefined);
    expect(body.vin).toBeNull();
    expect(body.chassisNumber).toBe('BNR32-305156');
  });

  it("checks with the shared schema and VIN rule, each problem on the line it belongs to", () => {
    const values: DossierFormValues = {
      ...filled,
      vin: '1G1YC2D45P5500123',
      serviceRecords: [{ ...emptyServiceRecord('r1'), date: '2024-13-40', mileage: 'lots', shop: 'X', work: 'Y' }],
    };
    const errors = validateDossier(values, CORVETTE);
    expect(errors.vin).toBe(VIN_MESSAGES.checkDigit);
    expect(errors[entryErrorKey('serviceRecords', 'r1', 'date')]).toBe('Enter the date of the work (YYYY-MM-DD)');
    expect(errors[entryErrorKey('serviceRecords', 'r1', 'mileage')]).toBe('Enter the mileage in whole miles, for example 12400');
    expect(validateDossier(filled, CORVETTE)).toEqual({});
  });

  it('says what the VIN check found as the VIN is typed', () => {
    expect(vinStatus('', CORVETTE)).toEqual({ state: 'empty' });
    expect(vinStatus('1G1YC2D4', CORVETTE)).toEqual({ state: 'incomplete' });
    expect(vinStatus(CORVETTE_VIN, CORVETTE)).toMatchObject({ state: 'ok', vinCheck: 'valid' });
    expect(vinStatus('WP0AC2A94NS270123', { make: 'Porsche', year: 2022 })).toMatchObject({ state: 'ok', vinCheck: 'not_applicable' });
    expect(vinStatus('WP0AC2A94NS270123', { make: 'Ferrari', year: 2022 })).toMatchObject({ state: 'wrong' });
  });

  it("puts the server's refusals on the lines they name, and keeps the rest", () => {
    const { origin } = buildDossierEdit(filled, () => 42);
    const { errors, other } = dossierErrorsFromDetails(
      [
        { field: 'vin', message: 'Wrong maker' },
        { field: 'knownFlaws.1.text', message: 'Too long' },
        { field: 'serviceRecords.0.documentId', message: 'No such document' },
        { field: 'somethingElse', message: 'Elsewhere' },
      ],
      origin,
    );
    expect(errors).toEqual({ vin: 'Wrong maker', 'knownFlaws:c': 'Too long', 'serviceRecords:r1:document': 'No such document' });
    expect(other).toEqual(['Elsewhere']);
  });

  it('fills the edit form from a dossier', () => {
    const values = dossierFormValues({
      vin: null,
      vinCheck: null,
      chassisNumber: 'BNR32-305156',
      knownFlaws: [{ id: 3, text: 'Chip' }],
      modifications: [],
      itemsIncluded: [],
      serviceRecords: [{ id: 9, date: '2024-05-10', mileage: 12400, shop: 'Nismo', work: 'Timing belt', documentId: 5 }],
      documents: [],
      updatedAt: null,
    });
    expect(values.identity).toBe('chassis');
    expect(values.knownFlaws).toEqual([{ key: 'i3', id: 3, text: 'Chip' }]);
    expect(values.serviceRecords[0]).toMatchObject({ id: 9, mileage: '12,400', cost: '', document: 'doc:5' });
  });

  it('judges picked documents before sending them, and guesses their kind and title from the name', () => {
    expect(documentFileProblem({ name: 'invoice.pdf', type: 'application/pdf', size: 1000 })).toBeUndefined();
    expect(documentFileProblem({ name: 'notes.txt', type: 'text/plain', size: 1000 })).toMatch(/not a PDF, JPEG or PNG/);
    expect(documentFileProblem({ name: 'big.pdf', type: 'application/pdf', size: 21 * 1024 * 1024 })).toMatch(/at most 20 MB/);
    expect(kindFromFileName('2024_service_invoice.pdf')).toBe('service');
    expect(kindFromFileName('carfax.pdf')).toBe('history');
    expect(titleFromFileName('first_service__2024.pdf')).toBe('first service 2024');
  });
});
