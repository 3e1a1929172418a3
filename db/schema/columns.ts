import { integer, timestamp, type AnyPgColumn, type UpdateDeleteAction } from 'drizzle-orm/pg-core';

/** The row's own id, numbered by the database. */
export function identity() {
  return integer().primaryKey().generatedAlwaysAsIdentity();
}

/** A required reference to another table's id; an optional one is written `integer().references(...)`. */
export function reference(target: () => AnyPgColumn, onDelete: UpdateDeleteAction) {
  return integer().notNull().references(target, { onDelete });
}

/** A moment in time, with its time zone. */
export function timestamptz() {
  return timestamp({ withTimezone: true });
}

/** A moment the database fills in when the row is written (created, updated, last used). */
export function timestampNow() {
  return timestamptz().notNull().defaultNow();
}
