/**
 * The statements that read a run's records. Invariants:
 * - a page is a window of seqs, [from, before): seqs are dense from 0, so the first `limit`
 *   records from `from` are [from, from + limit), and the primary key reads a window in time
 *   bounded by its size, whatever the planner estimates of the run (an open-ended `seq >= from
 *   ORDER BY seq LIMIT n` was planned, on a freshly written run, as a scan of every later record);
 * - payloads are read as text and parsed by the caller (drivers differ on parsing json columns),
 *   and times as ISO text made by the database (a Date per row was a large part of a long read).
 *
 * Parameters: $1 run id, $2 first seq, $3 the seq the window ends before, $4 the most records
 * (null: all); READ_KINDS_SQL adds $5, the kinds as a JSON list.
 */
import { isoText } from "./rows";

/** Past every seq (seq is a PostgreSQL int). */
export const SEQ_END = 2_147_483_647;

export const RECORD_COLUMNS = `seq, name, kind, payload::text AS payload, ${isoText("created_at")} AS created_at`;

export const READ_SQL = `SELECT ${RECORD_COLUMNS} FROM records WHERE run_id = $1::text AND seq >= $2::int AND seq < $3::int ORDER BY seq LIMIT $4::int`;

export const READ_KINDS_SQL = `SELECT ${RECORD_COLUMNS} FROM records WHERE run_id = $1::text AND seq >= $2::int AND seq < $3::int
  AND kind IN (SELECT json_array_elements_text($5::text::json)) ORDER BY seq LIMIT $4::int`;

/**
 * A window of records as one JSON text, `[[seq, name, kind, payload, createdAt], …]` in seq order,
 * made by the database: a reader that hands the page to another thread to parse (the server's
 * projection pool) never parses a row itself. The payload goes in as the stored JSON. $5 is the
 * kinds as a JSON list, or null for every kind.
 */
export const PAGE_SQL = `SELECT coalesce(json_agg(json_build_array(seq, name, kind, payload, ${isoText("created_at")}) ORDER BY seq), '[]')::text
  FROM (SELECT seq, name, kind, payload, created_at FROM records WHERE run_id = $1::text AND seq >= $2::int AND seq < $3::int
  AND ($5::text IS NULL OR kind IN (SELECT json_array_elements_text($5::text::json))) ORDER BY seq LIMIT $4::int) AS page`;
