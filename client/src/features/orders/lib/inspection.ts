import { DOSSIER_SECTIONS, DOSSIER_SECTION_LABELS, type DossierSection, type InspectionResult } from '@common/dossier.ts';
import { InspectionEditSchema, type Inspection, type InspectionEdit, type InspectionItem } from '@common/schemas/dossier.ts';
import { checkAgainst } from '@common/validation.ts';

/**
 * The buyer's inspection checklist: each item of the dossier frozen into the order, marked as
 * described or not, with a note. The marks as typed are kept apart from those the server has, so
 * only what changed is sent, and a dispute cites the items marked not as described.
 */

export interface Mark {
  result: InspectionResult | null;
  note: string;
}

export type Marks = Readonly<Record<number, Mark>>;

export const RESULT_LABELS: Record<InspectionResult, string> = {
  as_described: 'As described',
  not_as_described: 'Not as described',
};

/** The marks the server has. */
export function marksOf(inspection: Inspection): Marks {
  return Object.fromEntries(inspection.items.map((item) => [item.itemId, { result: item.result, note: item.note ?? '' }]));
}

/** The `PUT` body's items: every marked item whose mark or note differs from the server's. */
export function changedMarks(inspection: Inspection, marks: Marks): InspectionEdit['items'] {
  const items: InspectionEdit['items'] = [];
  for (const item of inspection.items) {
    const mark = marks[item.itemId];
    if (!mark?.result) continue;
    const note = mark.note.trim();
    if (mark.result === item.result && note === (item.note ?? '').trim()) continue;
    items.push(note ? { itemId: item.itemId, result: mark.result, note } : { itemId: item.itemId, result: mark.result });
  }
  return items;
}

/** The items marked not as described, in checklist order. */
export function itemsNotAsDescribed(inspection: Inspection, marks: Marks): InspectionItem[] {
  return inspection.items.filter((item) => marks[item.itemId]?.result === 'not_as_described');
}

/** How many of the items carry a mark. */
export function markedCount(inspection: Inspection, marks: Marks): number {
  return inspection.items.filter((item) => marks[item.itemId]?.result).length;
}

/** The checklist by section, in the dossier's order, leaving out empty sections. */
export function bySection<T extends { section: DossierSection }>(items: readonly T[]): { section: DossierSection; label: string; items: T[] }[] {
  return DOSSIER_SECTIONS.map((section) => ({ section, label: DOSSIER_SECTION_LABELS[section], items: items.filter((item) => item.section === section) })).filter(
    (group) => group.items.length > 0,
  );
}

/** The schema's sentence for a note that is too long, or undefined. */
export function noteError(note: string): string | undefined {
  const issue = checkAgainst(InspectionEditSchema, { items: [{ itemId: 1, result: 'as_described', note: note.trim() }] }).find((i) => i.field.endsWith('.note'));
  return issue?.message;
}
