import { sql, type SQL } from 'drizzle-orm';

/**
 * `'a', 'b', 'c'`: a list of the code's own constants for a check's `in (...)`. Never for
 * anything a user sent: the values are written into the SQL as they are.
 */
export function quoted(values: readonly string[]): SQL {
  return sql.raw(values.map((v) => `'${v}'`).join(', '));
}
