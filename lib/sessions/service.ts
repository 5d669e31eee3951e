/**
 * SessionService: ADK-style sessions on Backtrack's database (embedded PGlite or a server), over the
 * SqlClient port. Invariants:
 * - every append is one statement: idempotent on the event id, refused on a stale revision, and
 *   atomic across the event, the session snapshot and the shared (app:, user:) snapshots and logs;
 * - get() rebuilds state by replaying the stored deltas and compares the snapshots with the replay;
 * - the state handed out is read-only: a change that is not an event cannot be made.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, type SQL } from "drizzle-orm";
import { canonicalJson } from "../journal/canonical";
import { BadInputError } from "../journal/errors";
import { DEFAULT_PAYLOAD_LIMIT_BYTES } from "../journal/base";
import { drizzleOver, type Database } from "../store/drizzle";
import { iso, UNIQUE_VIOLATION } from "../store/rows";
import { sessions } from "../store/schema/index";
import type { SqlClient } from "../store/sql-client";
import { EventTooLargeError, RebuildMismatchError, SessionExistsError, SessionNotFoundError, StaleSessionError } from "./errors";
import { rebuild, type SharedLog } from "./rebuild";
import { Session } from "./session";
import {
  appendEventSql,
  CREATE_SQL,
  CURRENT_REVISION_SQL,
  DELETE_SQL,
  EVENT_BY_ID_SQL,
  EVENTS_SQL,
  SESSION_SQL,
  scopeParameters,
  SHARED_CHANGES_SQL,
  type AppendRow,
  type EventRow,
  type SessionRow,
  type SharedChangeRow,
} from "./sql";
import { persistedDelta, splitDelta } from "./state";
import { replayState } from "./timeline";
import type { AppendEventResult, CreateSessionInput, EventQuery, NewSessionEvent, SessionEvent, SessionQuery, SessionRef, SessionSummary, State, StateDelta } from "./types";
import { checkCreate, checkEvent, checkId, checkIndex, type CheckedEvent } from "./validate";

const DEFAULT_LIST_LIMIT = 100;
const MAX_LIST_LIMIT = 1000;

export interface SessionServiceOptions {
  /** Largest event accepted (JSON text of its content and delta), in bytes. Default 1 MiB. */
  eventLimitBytes?: number;
}

export interface GetOptions {
  /**
   * What to do when the stored snapshots disagree with the replay of the stored deltas: "throw"
   * (default) raises RebuildMismatchError; "report" returns the replayed session with the
   * differences in `session.rebuild` (what the inspector uses).
   */
  onMismatch?: "throw" | "report";
}

interface Loaded {
  row: SessionRow;
  events: SessionEvent[];
}

export class SessionService {
  readonly db: Database;
  private readonly eventLimitBytes: number;

  constructor(
    readonly client: SqlClient,
    options: SessionServiceOptions = {},
  ) {
    this.db = drizzleOver(client);
    this.eventLimitBytes = options.eventLimitBytes ?? DEFAULT_PAYLOAD_LIMIT_BYTES;
  }

  /** Creates a session; SessionExistsError if the id is taken. The state is session-scoped keys only. */
  async create(input: CreateSessionInput): Promise<Session> {
    const checked = checkCreate(input);
    const id = checked.id ?? randomUUID();
    // Raw SQL, not drizzle's insert: through postgres.js drizzle would encode a json value twice.
    const inserted = await this.client.query(CREATE_SQL, [id, checked.app, checked.user, JSON.stringify(checked.state)]);
    if (inserted.length === 0) throw new SessionExistsError(id);
    // Loaded like any session, so that it carries the app's and user's shared keys.
    const session = await this.get(id);
    if (!session) throw new SessionNotFoundError(id);
    return session;
  }

  /** The session with its events and its state rebuilt from them; undefined for an unknown id. */
  async get(id: string, options: GetOptions = {}): Promise<Session | undefined> {
    const loaded = await this.load(checkId(id));
    if (!loaded) return undefined;
    const { row, events } = loaded;
    const [app, user] = await this.sharedLogs(row);
    const initialState = JSON.parse(row.initial_state) as State;
    const rebuilt = rebuild({ initialState, snapshot: JSON.parse(row.state) as State, revision: row.revision, events, app, user });
    if (!rebuilt.check.ok && (options.onMismatch ?? "throw") === "throw") throw new RebuildMismatchError(row.id, rebuilt.check);
    return new Session({
      id: row.id,
      app: row.app,
      user: row.user_id,
      initialState,
      state: rebuilt.state,
      events,
      revision: Number(row.revision),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      rebuild: rebuilt.check,
    });
  }

  /** Appends an event and returns the stored event (on a duplicate id: the one stored first). */
  async appendEvent(session: SessionRef, event: NewSessionEvent): Promise<SessionEvent> {
    return (await this.append(session, event)).event;
  }

  /**
   * Appends an event through a session object loaded at `session.revision`:
   * - the id is already stored: returns the stored event, `created: false`; nothing is stored or applied;
   * - storage has moved on since the object was loaded: StaleSessionError, nothing is stored;
   * - otherwise the event is stored with its delta minus temp: keys, and a Session object advances:
   *   the event joins its history and the whole delta (temp: keys too) applies to its state.
   */
  async append(session: SessionRef, event: NewSessionEvent): Promise<AppendEventResult> {
    if (typeof session !== "object" || session === null) throw new BadInputError("appendEvent needs the session (or { id, revision }) to append through");
    const sessionId = checkId(session.id);
    const revision = checkIndex(session.revision, "session revision");
    const checked = checkEvent(event);
    const eventId = checked.id ?? randomUUID();
    const { persisted, tempKeys } = persistedDelta(checked.stateDelta);
    const scoped = splitDelta(persisted);
    const contentText = checked.content === null || checked.content === undefined ? null : JSON.stringify(checked.content);
    // The limit counts the whole delta (temp: keys too); without temp: keys it is also what is stored.
    const deltaText = tempKeys.length > 0 ? JSON.stringify(persisted) : checked.stateDeltaText;
    const bytes = Buffer.byteLength(contentText ?? "", "utf8") + Buffer.byteLength(checked.stateDeltaText, "utf8");
    if (bytes > this.eventLimitBytes) throw new EventTooLargeError(sessionId, eventId, bytes, this.eventLimitBytes);
    const params: unknown[] = [
      sessionId,
      eventId,
      revision,
      checked.author,
      checked.invocationId,
      contentText,
      deltaText,
      tempKeys.length > 0 ? JSON.stringify(tempKeys) : null,
      checked.timestamp ?? null,
      ...scopeParameters(scoped.session),
    ];
    for (const delta of [scoped.app, scoped.user]) if (delta) params.push(...scopeParameters(delta), JSON.stringify(delta));
    const statement = appendEventSql({ app: scoped.app !== undefined, user: scoped.user !== undefined });
    let row: AppendRow | undefined;
    try {
      [row] = await this.client.query<AppendRow>(statement, params, { prepare: true });
    } catch (error) {
      // The id is stored (the revision matched, so the statement reached the insert; or a racer's append of it).
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      return this.duplicate(sessionId, eventId, checked, error);
    }
    if (!row) {
      // Refused: a stored id (possibly appended by a racer since this object was loaded), a stale object or no session.
      const [stored] = await this.client.query<EventRow>(EVENT_BY_ID_SQL, [sessionId, eventId]);
      if (stored) return duplicateOf(stored, checked);
      const [current] = await this.client.query<{ revision: number }>(CURRENT_REVISION_SQL, [sessionId]);
      if (!current) throw new SessionNotFoundError(sessionId);
      throw new StaleSessionError(sessionId, eventId, revision, Number(current.revision));
    }
    const seq = Number(row.seq);
    const stored: SessionEvent = {
      id: eventId,
      author: checked.author,
      invocationId: checked.invocationId,
      content: contentText === null ? null : JSON.parse(contentText),
      timestamp: new Date(Number(row.timestamp_ms)).toISOString(),
      actions: tempKeys.length > 0 ? { stateDelta: JSON.parse(deltaText), tempKeys } : { stateDelta: JSON.parse(deltaText) },
      index: seq,
    };
    if (session instanceof Session) Session.advance(session, stored, checked.stateDelta, seq + 1, new Date(Number(row.updated_ms)).toISOString());
    return { event: stored, created: true, matches: true };
  }

  /** Sessions, most recently updated first, optionally of one app and/or one user. Without events or state. */
  async listSessions(query: SessionQuery = {}): Promise<SessionSummary[]> {
    const conditions: SQL[] = [];
    if (query.app !== undefined) conditions.push(eq(sessions.app, checkId(query.app, "app")));
    if (query.user !== undefined) conditions.push(eq(sessions.userId, checkId(query.user, "user")));
    const limit = query.limit === undefined ? DEFAULT_LIST_LIMIT : Math.min(checkIndex(query.limit, "limit"), MAX_LIST_LIMIT);
    const rows = await this.db
      .select({ id: sessions.id, app: sessions.app, user: sessions.userId, revision: sessions.revision, createdAt: sessions.createdAt, updatedAt: sessions.updatedAt })
      .from(sessions)
      .where(and(...conditions))
      .orderBy(desc(sessions.updatedAt), sessions.id)
      .limit(limit);
    return rows.map((row) => ({ ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) }));
  }

  /** A session's stored events in order, from index `from`; SessionNotFoundError for an unknown id. */
  async listEvents(id: string, query: EventQuery = {}): Promise<SessionEvent[]> {
    const sessionId = checkId(id);
    const from = query.from === undefined ? 0 : checkIndex(query.from, "from");
    const end = query.limit === undefined ? 2 ** 31 - 1 : from + checkIndex(query.limit, "limit");
    const rows = await this.client.query<EventRow>(EVENTS_SQL, [sessionId, from, Math.min(end, 2 ** 31 - 1)], { prepare: true });
    if (rows.length === 0 && (await this.client.query(CURRENT_REVISION_SQL, [sessionId])).length === 0) throw new SessionNotFoundError(sessionId);
    return rows.map(toEvent);
  }

  /**
   * The state after the session's first `index` events: its initial state plus their deltas, in
   * order (this session's own view: app: and user: keys as its events set them). Plain data.
   */
  async stateAt(id: string, index: number): Promise<State> {
    const at = checkIndex(index, "index");
    const loaded = await this.load(checkId(id), at);
    if (!loaded) throw new SessionNotFoundError(id);
    if (at > loaded.row.revision) throw new BadInputError(`session "${id}" has ${loaded.row.revision} events; index ${at} is past its end`);
    return replayState(JSON.parse(loaded.row.initial_state) as State, loaded.events, at);
  }

  /** Deletes a session and its events; false if there was none. Shared (app:, user:) state stays. */
  async delete(id: string): Promise<boolean> {
    // One function call (drizzle/0007): it also deletes the events that appends in flight commit while it waits.
    const [row] = await this.client.query<{ deleted: boolean }>(DELETE_SQL, [checkId(id)]);
    return row?.deleted === true;
  }

  /** The session row and its events below the row's revision (or below `upTo`). */
  private async load(id: string, upTo?: number): Promise<Loaded | undefined> {
    const [row] = await this.client.query<SessionRow>(SESSION_SQL, [id], { prepare: true });
    if (!row) return undefined;
    row.revision = Number(row.revision);
    // Events below a revision read are immutable, so they agree with the row whatever was appended since.
    const end = Math.min(upTo ?? row.revision, row.revision);
    const rows = await this.client.query<EventRow>(EVENTS_SQL, [id, 0, end], { prepare: true });
    // Fewer events than the row counts: lost events (the rebuild check reports them), or a delete
    // that committed between the two reads, and then there is no session.
    if (rows.length < end && (await this.client.query(CURRENT_REVISION_SQL, [id])).length === 0) return undefined;
    return { row, events: rows.map(toEvent) };
  }

  private async sharedLogs(row: SessionRow): Promise<[SharedLog, SharedLog]> {
    const appRevision = Number(row.app_revision);
    const userRevision = Number(row.user_revision);
    const app: SharedLog = { snapshot: row.app_state === null ? null : (JSON.parse(row.app_state) as State), revision: appRevision, changes: [] };
    const user: SharedLog = { snapshot: row.user_state === null ? null : (JSON.parse(row.user_state) as State), revision: userRevision, changes: [] };
    if (appRevision + userRevision === 0) return [app, user];
    const changes = await this.client.query<SharedChangeRow>(SHARED_CHANGES_SQL, [row.app, appRevision, row.user_id, userRevision], { prepare: true });
    for (const change of changes) {
      (change.user_id === "" ? app : user).changes.push({ revision: Number(change.revision), delta: JSON.parse(change.delta) as StateDelta });
    }
    return [app, user];
  }

  /** The stored event of a refused append's id, or `cause` when there is none. */
  private async duplicate(sessionId: string, eventId: string, sent: CheckedEvent, cause: unknown): Promise<AppendEventResult> {
    const [row] = await this.client.query<EventRow>(EVENT_BY_ID_SQL, [sessionId, eventId]);
    if (!row) throw cause;
    return duplicateOf(row, sent);
  }
}

/** A refused append's result: the event stored first, and whether the one sent says the same. */
function duplicateOf(row: EventRow, sent: CheckedEvent): AppendEventResult {
  const event = toEvent(row);
  const same = (value: { author: string; invocationId: string; content: unknown; stateDelta: StateDelta }) =>
    canonicalJson([value.author, value.invocationId, value.content ?? null, value.stateDelta]);
  const matches = same({ ...event, stateDelta: event.actions.stateDelta }) === same({ ...sent, stateDelta: persistedDelta(sent.stateDelta).persisted });
  return { event, created: false, matches };
}

function toEvent(row: EventRow): SessionEvent {
  const stateDelta = JSON.parse(row.state_delta) as StateDelta;
  const tempKeys = row.temp_keys === null ? null : (JSON.parse(row.temp_keys) as string[] | null);
  return {
    id: row.id,
    author: row.author,
    invocationId: row.invocation_id,
    content: row.content === null ? null : JSON.parse(row.content),
    timestamp: new Date(Number(row.timestamp_ms)).toISOString(),
    actions: tempKeys && tempKeys.length > 0 ? { stateDelta, tempKeys } : { stateDelta },
    index: Number(row.seq),
  };
}
