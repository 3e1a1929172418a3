/** The messages of an error and of its causes (the driver's error sits under the query builder's), joined. */
export function errorMessages(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) parts.push(String(e.message));
  return parts.join(' | ');
}
