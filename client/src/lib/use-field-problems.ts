import { useId, useState } from 'react';
import { ApiError } from './api-client.ts';
import { detailsByField } from './field-errors.ts';

/**
 * The per-field messages of a form (WCAG 3.3.1): each shown beside its field (the field
 * component ties it with `aria-describedby` and sets `aria-invalid`), focus moved to the first
 * field in `order` that has one, a field's message gone as soon as it is edited. The server's
 * 400 `VALIDATION_FAILED` details land in the same places, by the field names of the request
 * (`serverFields` maps a request field to the form's, e.g. `newPassword` → `password`).
 */
export function useFieldProblems<F extends string>(order: readonly F[], serverFields: Partial<Record<string, F>> = {}) {
  const baseId = useId();
  const [problems, setProblems] = useState<Partial<Record<F, string>>>({});
  const idOf = (field: F) => `${baseId}-${field}`;

  /** Shows `found` (replacing what was shown) and focuses the first; true when there was any. */
  function show(found: Partial<Record<F, string>>): boolean {
    setProblems(found);
    const first = order.find((field) => found[field]);
    if (first) requestAnimationFrame(() => document.getElementById(idOf(first))?.focus());
    return first !== undefined;
  }

  /**
   * A refused request's messages about fields, shown at them. True when every message of the
   * answer was a field's (the form then needs no other alert).
   */
  function showServer(error: unknown): boolean {
    const names = [...new Set([...order, ...Object.keys(serverFields)])];
    const { fields, other } = detailsByField(error instanceof ApiError ? error.details : undefined, names);
    const found: Partial<Record<F, string>> = {};
    for (const [name, message] of Object.entries(fields) as [string, string][]) {
      const field = serverFields[name] ?? (order.includes(name as F) ? (name as F) : undefined);
      if (field) found[field] ??= message;
    }
    return show(found) && other.length === 0;
  }

  /** Wraps a field's setter so that editing it clears its message. */
  const edit =
    <V>(field: F, set: (value: V) => void) =>
    (value: V) => {
      set(value);
      if (problems[field]) setProblems(({ [field]: _gone, ...rest }) => rest as Partial<Record<F, string>>);
    };

  return { problems, show, showServer, edit, idOf, clear: () => setProblems({}) };
}
