import { describe, expect, it } from 'vitest';
import type { FrozenDossier } from '@common/schemas/dossier.ts';
import { changesSince, checklistItems, snapshotHash } from './dossier-records.ts';

const frozen: FrozenDossier = {
  vin: 'WP0AC2A94NS270123',
  vinCheck: 'not_applicable',
  chassisNumber: null,
  knownFlaws: [{ id: 1, text: 'Stone chips' }, { id: 2, text: 'Curb rash' }],
  modifications: [{ id: 3, text: 'Clear bra' }],
  itemsIncluded: [{ id: 4, text: 'Both keys' }],
  serviceRecords: [{ id: 5, date: '2024-05-10', mileage: 6_120, shop: 'Porsche Austin', work: 'Annual service', cost: 1_450 }],
  documents: [{ id: 9, kind: 'service', title: 'Invoice', bytes: 1_000, contentType: 'application/pdf', uploadedAt: '2024-05-11T00:00:00.000Z' }],
};

describe('the frozen dossier', () => {
  it('hashes its canonical JSON: the same content in another key order gives the same hash', () => {
    const reordered = JSON.parse(JSON.stringify({ documents: frozen.documents, serviceRecords: frozen.serviceRecords, itemsIncluded: frozen.itemsIncluded, modifications: frozen.modifications, knownFlaws: frozen.knownFlaws, chassisNumber: null, vinCheck: frozen.vinCheck, vin: frozen.vin })) as FrozenDossier;
    expect(snapshotHash(reordered)).toBe(snapshotHash(frozen));
    expect(snapshotHash(frozen)).toMatch(/^[0-9a-f]{64}$/);
    expect(snapshotHash({ ...frozen, knownFlaws: [{ id: 1, text: 'Stone chip' }, frozen.knownFlaws[1]!] })).not.toBe(snapshotHash(frozen));
  });

  it('lists every item for the checklist, service records as one line', () => {
    expect(checklistItems(frozen).map((i) => [i.itemId, i.section])).toEqual([
      [1, 'knownFlaws'],
      [2, 'knownFlaws'],
      [3, 'modifications'],
      [4, 'itemsIncluded'],
      [5, 'serviceRecords'],
    ]);
    expect(checklistItems(frozen)[4]!.text).toBe('2024-05-10 · 6,120 mi · Porsche Austin: Annual service');
  });

  it('tells what changed since: nothing, then each edit, removal and addition', () => {
    expect(changesSince(frozen, frozen)).toEqual([]);
    const now: FrozenDossier = {
      ...frozen,
      vin: null,
      knownFlaws: [{ id: 2, text: 'Curb rash, two wheels' }, { id: 7, text: 'Seat wear' }],
      documents: [],
    };
    expect(changesSince(frozen, now)).toEqual([
      { section: 'vin', change: 'removed', itemId: null, before: 'WP0AC2A94NS270123', after: null },
      { section: 'knownFlaws', change: 'removed', itemId: 1, before: 'Stone chips', after: null },
      { section: 'knownFlaws', change: 'changed', itemId: 2, before: 'Curb rash', after: 'Curb rash, two wheels' },
      { section: 'knownFlaws', change: 'added', itemId: 7, before: null, after: 'Seat wear' },
      { section: 'documents', change: 'removed', itemId: 9, before: 'Invoice', after: null },
    ]);
  });
});
