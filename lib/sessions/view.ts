/**
 * The session view the CLI (`backtrack session <id> --json`) and the API (`GET /api/sessions/{id}`)
 * both print: the session, its events, the state as of event N, and the rebuild check.
 */
import { BadInputError } from "../journal/errors";
import { SessionNotFoundError } from "./errors";
import type { SessionService } from "./service";
import { rebuildRows, type RebuildRow } from "./inspector";
import { Session } from "./session";
import { copyState } from "./state";
import { eventChanges, replayState, type KeyChange } from "./timeline";
import type { RebuildCheck, SessionEvent, SessionSummary, State } from "./types";

export interface SessionView extends SessionSummary {
  /** The state shown is the state after the first `at` events. */
  at: number;
  /** The session-scoped state given to create: the base the events' deltas replay onto (step 0). */
  initialState: State;
  /**
   * At the end (`at` = revision): the rebuilt state get() serves, app: and user: keys from their
   * shared logs. Before it: the initial state plus this session's first `at` deltas.
   */
  state: State;
  /** The keys the event at index `at - 1` changed (none at 0). */
  changes: KeyChange[];
  events: SessionEvent[];
  /** The stored snapshots against the replay of the stored deltas. */
  rebuild: RebuildCheck;
}

export async function sessionView(service: SessionService, id: string, at?: number): Promise<SessionView> {
  const session = await service.get(id, { onMismatch: "report" });
  if (!session) throw new SessionNotFoundError(id);
  const { events, initialState } = Session.data(session);
  const revision = session.revision;
  const index = at ?? revision;
  if (!Number.isInteger(index) || index < 0 || index > revision) {
    throw new BadInputError(`at must be an event count from 0 to ${revision} for session "${id}"`);
  }
  const initial = copyState(initialState);
  const before = index > 0 ? replayState(initial, events, index - 1) : initial;
  const event = index > 0 ? events[index - 1] : undefined;
  return {
    id: session.id,
    app: session.app,
    user: session.user,
    revision,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    at: index,
    initialState: initial,
    state: index === revision ? session.stateCopy() : replayState(initial, events, index),
    changes: event ? eventChanges(before, event) : [],
    events: [...events],
    rebuild: session.rebuild as RebuildCheck,
  };
}

/** What the inspector's "Rebuild check" shows (`GET /api/sessions/{id}/rebuild`). */
export interface RebuildReport {
  id: string;
  /** How many events the session row says were stored. */
  revision: number;
  /** When the check ran (ISO 8601). */
  checkedAt: string;
  rebuild: RebuildCheck;
  /** Key by key: the replay against the stored snapshot, differences first. */
  rows: RebuildRow[];
}

/**
 * Reads the session afresh from storage, replays its stored deltas (and the shared scopes' logs)
 * and compares the result with the stored snapshots. Reads only; SessionNotFoundError if unknown.
 */
export async function rebuildReport(service: SessionService, id: string): Promise<RebuildReport> {
  const session = await service.get(id, { onMismatch: "report" });
  if (!session) throw new SessionNotFoundError(id);
  const rebuild = session.rebuild as RebuildCheck;
  return { id: session.id, revision: session.revision, checkedAt: new Date().toISOString(), rebuild, rows: rebuildRows(session.stateCopy(), rebuild) };
}
