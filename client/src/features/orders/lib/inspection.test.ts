import { describe, expect, it } from 'vitest';
import type { Inspection } from '@common/schemas/dossier.ts';
import { bySection, changedMarks, itemsNotAsDescribed, markedCount, marksOf, noteError } from './inspection.ts';

const inspection: Inspection = {
  snapshotHash: 'ab'.repeat(32),
  disputedItems: [],
  items: [
    { itemId: 1, section: 'knownFlaws', text: 'Chips', result: null, note: null },
    { itemId: 2, section: 'serviceRecords', text: '2024-05-10 · 8,120 mi · Shop: Oil', result: 'as_described', note: null },
    { itemId: 3, section: 'knownFlaws', text: 'Scuff', result: null, note: null },
  ],
};

describe('the inspection checklist', () => {
  it('sends only the marks that changed, notes trimmed, unmarked items left out', () => {
    const marks = { ...marksOf(inspection), 1: { result: 'not_as_described' as const, note: '  Cracked  ' }, 3: { result: null, note: 'typed' } };
    expect(changedMarks(inspection, marks)).toEqual([{ itemId: 1, result: 'not_as_described', note: 'Cracked' }]);
    expect(changedMarks(inspection, marksOf(inspection))).toEqual([]);
    expect(itemsNotAsDescribed(inspection, marks).map((i) => i.itemId)).toEqual([1]);
    expect(markedCount(inspection, marks)).toBe(2);
  });

  it("groups the items by the dossier's sections, in its order", () => {
    expect(bySection(inspection.items).map((g) => [g.label, g.items.map((i) => i.itemId)])).toEqual([
      ['Known flaws', [1, 3]],
      ['Service history', [2]],
    ]);
  });

  it("words a note that is too long as the shared schema does", () => {
    expect(noteError('fine')).toBeUndefined();
    expect(noteError('x'.repeat(1001))).toBe('A note is at most 1,000 characters');
  });
});
