/**
 * Sessions (ADK-style): a session is an append-only list of events, each carrying a `stateDelta`.
 * The events are the truth; the `state` columns are snapshots kept by the same append statement,
 * so that a rebuild can be checked against them (see lib/sessions/README.md).
 */
import { index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";

/**
 * One row per session. `revision` counts the stored events and is the optimistic-concurrency token:
 * an append names the revision its session object was loaded at, and lands only if it still holds.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    app: text("app").notNull(),
    userId: text("user_id").notNull(),
    /** The session-scoped state given to `create`: the base the events' deltas replay onto. */
    initialState: json("initial_state").notNull(),
    /** Snapshot of the session-scoped keys after all events (never temp:, app: or user: keys). */
    state: jsonb("state").notNull(),
    revision: integer("revision").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  // No index on revision, state or updated_at: an append's update of the row then stays a HOT update
  // (no index entries to write). Lists filter by app and user, and sort what they find.
  (table) => [index("sessions_app_user_idx").on(table.app, table.userId)],
);

/**
 * A session's events. `seq` is dense per session from 0 (the event's index); `id` is unique per
 * session (a retried append of a stored id is dropped). `state_delta` is what was persisted: temp:
 * keys stripped; `temp_keys` keeps only the names of the stripped keys, never their values.
 * Text columns are `json`, not `jsonb`, so that an event reads back as written.
 */
export const sessionEvents = pgTable(
  "session_events",
  {
    // No foreign key: an event is inserted only by an append that holds its session row's lock, and
    // deleting a session deletes its events (backtrack_delete_session, drizzle/0007). The key's check
    // cost about 4% of an append.
    sessionId: text("session_id").notNull(),
    seq: integer("seq").notNull(),
    id: text("id").notNull(),
    author: text("author").notNull(),
    invocationId: text("invocation_id").notNull(),
    content: json("content"),
    stateDelta: json("state_delta").notNull(),
    tempKeys: json("temp_keys"),
    timestamp: timestamp("timestamp", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.seq] }), unique("session_events_session_id_key").on(table.sessionId, table.id)],
);

/**
 * Shared state: app: keys (user_id = '') and user: keys (user_id = the user) of an app. `revision`
 * counts the changes, which are logged in session_shared_changes under the row's lock, in order.
 */
export const sessionSharedStates = pgTable(
  "session_shared_states",
  {
    app: text("app").notNull(),
    userId: text("user_id").notNull(),
    state: jsonb("state").notNull(),
    revision: integer("revision").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.app, table.userId] })],
);

/**
 * The log of shared-state deltas, one row per event that changed a shared scope. It outlives the
 * session that wrote it (deleting a session keeps the app's and user's history whole).
 */
export const sessionSharedChanges = pgTable(
  "session_shared_changes",
  {
    app: text("app").notNull(),
    userId: text("user_id").notNull(),
    revision: integer("revision").notNull(),
    sessionId: text("session_id").notNull(),
    eventId: text("event_id").notNull(),
    delta: json("delta").notNull(),
  },
  (table) => [primaryKey({ columns: [table.app, table.userId, table.revision] })],
);
