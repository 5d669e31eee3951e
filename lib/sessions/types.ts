/**
 * The session model (Google ADK semantics). A session is an append-only list of events; each event
 * may carry `actions.stateDelta`, a map of absolute values (`null` deletes a key). A session's state
 * is whatever replaying the stored deltas produces.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A state: key → value. Keys carry their scope as a prefix (see state.ts). */
export type State = Record<string, JsonValue>;

/** Absolute values to set; `null` deletes the key. Never an increment: see lib/sessions/README.md. */
export type StateDelta = Record<string, JsonValue>;

export interface EventActions {
  /** The persisted delta: temp: keys are stripped before it is stored. */
  stateDelta: StateDelta;
  /** Names of the temp: keys this event set on the live session; their values were never stored. */
  tempKeys?: string[];
}

export interface SessionEvent {
  id: string;
  /** "user" or the agent that wrote the event. */
  author: string;
  invocationId: string;
  /** The message (ADK: `{ role, parts }`); any JSON, or null. */
  content: JsonValue;
  /** ISO 8601 */
  timestamp: string;
  actions: EventActions;
  /** Position in the session's history, dense from 0. */
  index: number;
}

/** What a caller appends. `id` makes a retried append idempotent: give it whenever a retry is possible. */
export interface NewSessionEvent {
  id?: string;
  author: string;
  invocationId?: string;
  /** Any JSON value (checked when appended). */
  content?: unknown;
  /** ISO 8601 text, epoch milliseconds or a Date; the database's clock when absent. */
  timestamp?: string | number | Date;
  /** Absolute JSON values (checked when appended); null deletes. */
  actions?: { stateDelta?: Record<string, unknown> };
}

export interface CreateSessionInput {
  app: string;
  user: string;
  /** A random UUID when absent. */
  id?: string;
  /** Session-scoped keys only, JSON values: app:/user: keys change through events, temp: keys never persist. */
  state?: Record<string, unknown>;
}

export interface SessionSummary {
  id: string;
  app: string;
  user: string;
  /** The number of stored events; the optimistic-concurrency token of an append. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface SessionQuery {
  app?: string;
  user?: string;
  /** At most this many, most recently updated first (default 100, at most 1,000). */
  limit?: number;
}

export interface EventQuery {
  from?: number;
  limit?: number;
}

/** Anything naming a session at a revision: a Session, or `{ id, revision }` kept by the caller. */
export interface SessionRef {
  readonly id: string;
  readonly revision: number;
}

export interface AppendEventResult {
  /** The stored event (on a duplicate: the one stored first, not the one sent). */
  event: SessionEvent;
  /** false when the session already held an event with this id: nothing was stored or applied. */
  created: boolean;
  /** On a duplicate, whether the sent event equals the stored one (author, content, delta). */
  matches: boolean;
}

export type StateScope = "session" | "app" | "user" | "temp";

/** One key whose stored snapshot disagrees with the replay of the stored deltas. */
export interface StateDifference {
  scope: Exclude<StateScope, "temp">;
  key: string;
  /** undefined: the key is absent on that side. */
  snapshot: JsonValue | undefined;
  replayed: JsonValue | undefined;
}

/** The result of comparing the stored snapshots with the replay of the stored deltas. */
export interface RebuildCheck {
  ok: boolean;
  /** The session row's revision: how many events it says were stored. */
  revision: number;
  /** How many events were found; fewer than `revision` means events were lost. */
  eventsFound: number;
  differences: StateDifference[];
  /** Shared scopes whose change log has gaps (a lost change). */
  sharedLogGaps: Array<{ scope: "app" | "user"; revision: number; changesFound: number }>;
  /** One line for people: "ok" or what differs. */
  summary: string;
}
