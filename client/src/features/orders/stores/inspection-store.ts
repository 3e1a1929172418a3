import { create } from 'zustand';
import { errorMessage, isAbortError } from '../../../lib/api-client.ts';
import { getInspection, saveInspection, type Inspection } from '../api/orders-api.ts';
import { changedMarks, marksOf, type Mark, type Marks } from '../lib/inspection.ts';

/**
 * The inspection checklist of each order on screen: the server's copy and the buyer's marks as
 * typed, shared by the checklist and the dispute dialog (which cites the items marked not as
 * described, saving unsaved marks first).
 */

export interface InspectionEntry {
  status: 'loading' | 'ready' | 'error';
  inspection: Inspection | null;
  marks: Marks;
  saving: boolean;
  /** Why loading or the last save failed. */
  error: string | null;
  /** The last save went through and nothing changed since. */
  saved: boolean;
}

export const useInspectionStore = create<{ entries: Record<number, InspectionEntry> }>()(() => ({ entries: {} }));

const EMPTY: InspectionEntry = { status: 'loading', inspection: null, marks: {}, saving: false, error: null, saved: false };

function update(orderId: number, change: (entry: InspectionEntry) => InspectionEntry): void {
  useInspectionStore.setState((state) => ({ entries: { ...state.entries, [orderId]: change(state.entries[orderId] ?? EMPTY) } }));
}

/** Reads the checklist; marks typed and not saved yet are kept over the server's. */
export async function loadInspection(orderId: number, signal?: AbortSignal): Promise<void> {
  try {
    const inspection = await getInspection(orderId, signal);
    update(orderId, (entry) => {
      const unsaved = entry.inspection ? changedMarks(entry.inspection, entry.marks) : [];
      const marks = { ...marksOf(inspection) };
      for (const item of unsaved) marks[item.itemId] = entry.marks[item.itemId]!;
      return { ...entry, status: 'ready', inspection, marks, error: null };
    });
  } catch (error) {
    if (isAbortError(error)) return;
    update(orderId, (entry) => (entry.status === 'ready' ? entry : { ...entry, status: 'error', error: errorMessage(error, 'Could not load the checklist.') }));
  }
}

export function setMark(orderId: number, itemId: number, change: Partial<Mark>): void {
  update(orderId, (entry) => {
    const current = entry.marks[itemId] ?? { result: null, note: '' };
    return { ...entry, marks: { ...entry.marks, [itemId]: { ...current, ...change } }, saved: false, error: null };
  });
}

/** True when there are marks the server does not have yet. */
export function hasUnsavedMarks(entry: InspectionEntry | undefined): boolean {
  return Boolean(entry?.inspection && changedMarks(entry.inspection, entry.marks).length > 0);
}

/** Sends the changed marks; resolves to whether the server has them all (true when nothing changed). */
export async function saveMarks(orderId: number): Promise<boolean> {
  const entry = useInspectionStore.getState().entries[orderId];
  if (!entry?.inspection || entry.saving) return false;
  const items = changedMarks(entry.inspection, entry.marks);
  if (items.length === 0) return true;
  update(orderId, (e) => ({ ...e, saving: true, error: null }));
  try {
    const inspection = await saveInspection(orderId, { items });
    update(orderId, (e) => ({ ...e, inspection, marks: marksOf(inspection), saving: false, saved: true }));
    return true;
  } catch (error) {
    update(orderId, (e) => ({ ...e, saving: false, error: errorMessage(error) }));
    return false;
  }
}

export function forgetInspection(orderId: number): void {
  useInspectionStore.setState((state) => {
    const entries = { ...state.entries };
    delete entries[orderId];
    return { entries };
  });
}
