import { describe, expect, it } from 'vitest';
import { modelResultsPath, parseResultsQuery, resultsParams, soldResultPath } from './results-query.ts';

describe('the results page query in its URL', () => {
  it('reads one car\'s sale from carId, which stands alone', () => {
    const query = parseResultsQuery(new URLSearchParams('carId=42&make=Porsche&page=3'));
    expect(query.carId).toBe(42);
    expect(resultsParams(query).toString()).toBe('carId=42');
  });

  it('ignores a carId that is no record id', () => {
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) {
      expect(parseResultsQuery(new URLSearchParams({ carId: bad, make: 'Porsche' }))).toMatchObject({ carId: null, make: 'Porsche' });
    }
  });

  it('writes the links to a car\'s result and to its model\'s results', () => {
    expect(soldResultPath(7)).toBe('/results?carId=7');
    expect(modelResultsPath('Porsche', '911 GT3')).toBe('/results?make=Porsche&model=911+GT3');
    expect(resultsParams({ make: 'Porsche', model: '', page: 2, carId: null }).toString()).toBe('make=Porsche&page=2');
  });
});
