/**
 * Splits a 400 `VALIDATION_FAILED` answer's `details` (`[{field, message}]`) into the messages
 * of a form's fields and the rest. A field is named by its first part: `features.3`, `/name`
 * and `name` all belong to `name`/`features`. The first message of a field stands. Anything
 * that is not such a list gives nothing. `fieldOf` names the field of a path where a form's
 * fields are not the body's (by default its first part).
 */
export function detailsByField<F extends string>(
  details: unknown,
  fields: readonly F[],
  fieldOf: (path: string[]) => string | undefined = (path) => path[0],
): { fields: Partial<Record<F, string>>; other: string[] } {
  const byField: Partial<Record<F, string>> = {};
  const other: string[] = [];
  if (!Array.isArray(details)) return { fields: byField, other };
  for (const item of details) {
    if (typeof item !== 'object' || item === null) continue;
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof message !== 'string' || !message) continue;
    const key = typeof field === 'string' ? fieldOf(field.replace(/^\//, '').split(/[./]/)) : undefined;
    if (key && (fields as readonly string[]).includes(key)) byField[key as F] ??= message;
    else other.push(message);
  }
  return { fields: byField, other };
}
