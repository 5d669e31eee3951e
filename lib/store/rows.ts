/**
 * Helpers for rows read back from PostgreSQL, the same on postgres.js and PGlite: one definition
 * for the journal's store, the sessions and the jobs, so they convert and classify alike.
 */

/** PostgreSQL's SQLSTATE for unique_violation: another writer inserted the same key first. */
export const UNIQUE_VIOLATION = "23505";

/**
 * A timestamptz column as ISO 8601 text in UTC to the millisecond, made by the database: the same
 * text as Date's toISOString (years 0 to 9999), without parsing a Date per row on the way.
 */
export function isoText(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamp column as ISO 8601 text; a nullable column's null stays null. */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A model record's token count in SQL, as summary.ts reads it: a finite number, rounded, never negative; else 0. */
export function tokenCount(field: "inputTokens" | "outputTokens"): string {
  return `CASE WHEN kind = 'model' AND json_typeof(payload->'usage'->'${field}') = 'number' THEN greatest(0, round((payload->'usage'->>'${field}')::numeric)) ELSE 0 END`;
}
