/**
 * The session service's hot statements, as SQL text (the append must be one statement: an embedded
 * database reached through its owner process runs single statements, never a transaction across calls).
 */

/**
 * `state` with a delta applied: the deleted keys (a text[] literal) removed, then the set keys (a
 * jsonb object) merged. Every use of a parameter casts it from text first: PostgreSQL refuses one
 * parameter deduced as two types.
 */
function apply(state: string, set: string, deleted: string): string {
  return `((${state}) - ${deleted}::text::text[]) || ${set}::text::jsonb`;
}

/** A shared scope's snapshot row and its change log entry, numbered by the row's revision under its lock. */
function shared(name: string, userColumn: string, set: string, deleted: string, delta: string): string {
  return `${name}_state AS (
  INSERT INTO session_shared_states AS t (app, user_id, state, revision)
  SELECT b.app, ${userColumn}, ${apply("'{}'::jsonb", set, deleted)}, 1 FROM bumped AS b
  ON CONFLICT (app, user_id) DO UPDATE SET state = ${apply("t.state", set, deleted)}, revision = t.revision + 1, updated_at = now()
  RETURNING t.app, t.user_id, t.revision
), ${name}_change AS (
  INSERT INTO session_shared_changes (app, user_id, revision, session_id, event_id, delta)
  SELECT c.app, c.user_id, c.revision, $1::text, $2::text, ${delta}::text::json FROM ${name}_state AS c
)`;
}

/** Which shared scopes an event's delta changes: each combination is its own (prepared) statement. */
interface SharedScopes {
  app: boolean;
  user: boolean;
}

const APPEND_STATEMENTS = new Map<string, string>();

/**
 * Appends one event in one statement, or writes nothing and returns no row:
 * - optimistic concurrency: the session row is updated only while its revision equals the one the
 *   caller's object was loaded at; a concurrent appender that got there first leaves it unchanged
 *   (PostgreSQL re-checks the WHERE on the newest row version after waiting for its lock);
 * - the event is inserted at seq = the old revision; an event id the session already stored fails
 *   the (session_id, id) unique key, which undoes the whole statement;
 * - the shared snapshots the delta touches take it, and their changes are logged in the order of
 *   their rows' locks.
 * No row (or the unique violation) is a refusal: the caller reads again to tell a duplicate id, a
 * stale object and an unknown session apart. The accepted append, the hot path, reads nothing else.
 * Parameters: $1 session id, $2 event id, $3 expected revision, $4 author, $5 invocation id,
 * $6 content (json text or null), $7 persisted delta (json text), $8 temp key names (json text or
 * null), $9 timestamp (or null: now), $10/$11 the session scope's set keys (jsonb text) and deleted
 * keys (text[] literal); then, for each shared scope changed (app first), its set keys, deleted keys
 * and delta (json text, for the log). SessionService.append builds them.
 */
export function appendEventSql(scopes: SharedScopes): string {
  const key = `${scopes.app}/${scopes.user}`;
  const cached = APPEND_STATEMENTS.get(key);
  if (cached) return cached;
  let next = 12;
  const parameters = () => [`$${next++}`, `$${next++}`, `$${next++}`] as const;
  const sharedParts: string[] = [];
  if (scopes.app) sharedParts.push(shared("app", "''", ...parameters()));
  if (scopes.user) sharedParts.push(shared("usr", "b.user_id", ...parameters()));
  const text = `
WITH bumped AS (
  UPDATE sessions AS s SET revision = s.revision + 1, state = ${apply("s.state", "$10", "$11")}, updated_at = now()
  WHERE s.id = $1::text AND s.revision = $3::int
  RETURNING s.revision - 1 AS seq, s.app, s.user_id, s.updated_at
), ${sharedParts.map((part) => `${part}, `).join("")}ins AS (
  INSERT INTO session_events (session_id, seq, id, author, invocation_id, content, state_delta, temp_keys, "timestamp")
  SELECT $1::text, b.seq, $2::text, $4::text, $5::text, $6::text::json, $7::text::json, $8::text::json, COALESCE($9::timestamptz, now())
  FROM bumped AS b
  RETURNING seq, "timestamp"
)
SELECT ins.seq, (extract(epoch FROM ins."timestamp") * 1000)::float8 AS timestamp_ms, (extract(epoch FROM b.updated_at) * 1000)::float8 AS updated_ms
FROM ins, bumped AS b`;
  APPEND_STATEMENTS.set(key, text);
  return text;
}

/** A scope's part of a delta as the append statement takes it: set keys (jsonb text), deleted keys (text[] literal). */
export function scopeParameters(delta: Record<string, unknown>): [string, string] {
  const set: Record<string, unknown> = {};
  const deleted: string[] = [];
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) deleted.push(key);
    else set[key] = value;
  }
  return [JSON.stringify(set), textArray(deleted)];
}

/** A PostgreSQL text[] literal: every element double-quoted, with backslash and quote escaped. */
function textArray(items: string[]): string {
  return `{${items.map((item) => `"${item.replace(/[\\"]/g, (character) => `\\${character}`)}"`).join(",")}}`;
}

/** The one row of an accepted append. Times are epoch milliseconds: a number, where a date text would cost a parse. */
export interface AppendRow {
  seq: number;
  timestamp_ms: number | string;
  updated_ms: number | string;
}

/** The session row with its app and user snapshots, in one snapshot of the database. */
export const SESSION_SQL = `
SELECT s.id, s.app, s.user_id, s.initial_state::text AS initial_state, s.state::text AS state, s.revision,
       s.created_at, s.updated_at,
       a.state::text AS app_state, COALESCE(a.revision, 0) AS app_revision,
       u.state::text AS user_state, COALESCE(u.revision, 0) AS user_revision
FROM sessions AS s
LEFT JOIN session_shared_states AS a ON a.app = s.app AND a.user_id = ''
LEFT JOIN session_shared_states AS u ON u.app = s.app AND u.user_id = s.user_id
WHERE s.id = $1::text`;

export interface SessionRow {
  id: string;
  app: string;
  user_id: string;
  initial_state: string;
  state: string;
  revision: number;
  created_at: Date | string;
  updated_at: Date | string;
  app_state: string | null;
  app_revision: number;
  user_state: string | null;
  user_revision: number;
}

// JSON columns are read as text and parsed here: drivers differ on whether they parse json. The
// timestamp is read as epoch milliseconds: a number, where a date text would cost a parse per event.
const EVENT_COLUMNS = `seq, id, author, invocation_id, content::text AS content, state_delta::text AS state_delta, temp_keys::text AS temp_keys,
  (extract(epoch FROM "timestamp") * 1000)::float8 AS timestamp_ms`;

/** Events [from, before) of a session in order. Events below a revision read are immutable, so this agrees with the row. */
export const EVENTS_SQL = `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1::text AND seq >= $2::int AND seq < $3::int ORDER BY seq`;

export const EVENT_BY_ID_SQL = `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1::text AND id = $2::text`;

export interface EventRow {
  seq: number;
  id: string;
  author: string;
  invocation_id: string;
  content: string | null;
  state_delta: string;
  temp_keys: string | null;
  timestamp_ms: number | string;
}

/** The change logs of the app scope (user_id '') up to $2 and of one user up to $4, in log order. */
export const SHARED_CHANGES_SQL = `
SELECT user_id, revision, delta::text AS delta FROM session_shared_changes
WHERE app = $1::text AND ((user_id = '' AND revision <= $2::int) OR (user_id = $3::text AND revision <= $4::int))
ORDER BY user_id, revision`;

export interface SharedChangeRow {
  user_id: string;
  revision: number;
  delta: string;
}

export const CURRENT_REVISION_SQL = `SELECT revision FROM sessions WHERE id = $1::text`;

export const CREATE_SQL = `
INSERT INTO sessions (id, app, user_id, initial_state, state) VALUES ($1::text, $2::text, $3::text, $4::text::json, $4::text::jsonb)
ON CONFLICT (id) DO NOTHING RETURNING id`;

/** Deletes a session and its events, also those appended while it waited (see drizzle/0007). */
export const DELETE_SQL = `SELECT backtrack_delete_session($1::text) AS deleted`;
