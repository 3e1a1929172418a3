import { describe, expect, it } from 'vitest';
import { detailsByField } from './field-errors.ts';

describe('detailsByField', () => {
  it('puts each message beside its field (the first one stands) and keeps the rest', () => {
    expect(
      detailsByField(
        [
          { field: 'name', message: 'Too long' },
          { field: '/name', message: 'Second' },
          { field: 'features.3', message: 'Bad feature' },
          { field: '/bio/0', message: 'Bio' },
          { field: 'unknown', message: 'Elsewhere' },
          { message: 'No field' },
          { field: 'name', message: '' },
          null,
        ],
        ['name', 'features', 'bio'] as const,
      ),
    ).toEqual({ fields: { name: 'Too long', features: 'Bad feature', bio: 'Bio' }, other: ['Elsewhere', 'No field'] });
  });

  it('gives nothing for anything that is not a list', () => {
    expect(detailsByField(undefined, ['name'])).toEqual({ fields: {}, other: [] });
    expect(detailsByField({ field: 'name' }, ['name'])).toEqual({ fields: {}, other: [] });
  });
});
