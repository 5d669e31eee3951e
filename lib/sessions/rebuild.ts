/**
 * Rebuilding a session's state from storage, pure. The stored deltas are the truth:
 * - session keys: the session's initial state, then its events' deltas in order;
 * - app: / user: keys: the scope's change log (every session's changes to it) in log order.
 * The snapshots kept beside them are only compared with the replay; any difference is reported.
 */
import { canonicalJson } from "../journal/canonical";
import { applyDelta, pickScope } from "./state";
import { replayState } from "./timeline";
import type { JsonValue, RebuildCheck, SessionEvent, State, StateDifference, StateDelta } from "./types";

export interface SharedLog {
  /** The snapshot row's state (null: no row) and revision (0: no row). */
  snapshot: State | null;
  revision: number;
  /** The logged changes up to `revision`, in order. */
  changes: Array<{ revision: number; delta: StateDelta }>;
}

export interface StoredSession {
  initialState: State;
  /** The session row's snapshot of session-scoped keys and its revision. */
  snapshot: State;
  revision: number;
  events: readonly SessionEvent[];
  app: SharedLog;
  user: SharedLog;
}

export interface Rebuilt {
  /** Session, app: and user: keys, as the replay produced them. */
  state: State;
  check: RebuildCheck;
}

export function rebuild(stored: StoredSession): Rebuilt {
  // Only session-scoped keys come from this session's events; a shared key it wrote is the scope log's.
  const session = pickScope(replayState(stored.initialState, stored.events), "session");
  const app = replayShared(stored.app);
  const user = replayShared(stored.user);
  const differences = [...compare("session", stored.snapshot, session), ...compare("app", stored.app.snapshot ?? {}, app), ...compare("user", stored.user.snapshot ?? {}, user)];
  const sharedLogGaps: RebuildCheck["sharedLogGaps"] = [];
  for (const scope of ["app", "user"] as const) {
    const log = stored[scope];
    if (log.changes.length !== log.revision) sharedLogGaps.push({ scope, revision: log.revision, changesFound: log.changes.length });
  }
  const eventsFound = stored.events.length;
  const ok = differences.length === 0 && sharedLogGaps.length === 0 && eventsFound === stored.revision;
  return {
    state: { ...session, ...pickScope(app, "app"), ...pickScope(user, "user") },
    check: { ok, revision: stored.revision, eventsFound, differences, sharedLogGaps, summary: summarise(ok, stored.revision, eventsFound, differences, sharedLogGaps) },
  };
}

function replayShared(log: SharedLog): State {
  const state: State = {};
  for (const change of log.changes) applyDelta(state, change.delta);
  return state;
}

function compare(scope: StateDifference["scope"], snapshot: State, replayed: State): StateDifference[] {
  const differences: StateDifference[] = [];
  const keys = new Set([...Object.keys(snapshot), ...Object.keys(replayed)]);
  for (const key of [...keys].sort()) {
    const stored: JsonValue | undefined = snapshot[key];
    const rebuilt: JsonValue | undefined = replayed[key];
    // Canonical JSON: jsonb snapshots reorder object keys, which is no difference.
    if (stored === undefined || rebuilt === undefined ? stored !== rebuilt : canonicalJson(stored) !== canonicalJson(rebuilt)) {
      differences.push({ scope, key, snapshot: stored, replayed: rebuilt });
    }
  }
  return differences;
}

function summarise(ok: boolean, revision: number, eventsFound: number, differences: StateDifference[], gaps: RebuildCheck["sharedLogGaps"]): string {
  if (ok) return `ok: the replay of ${eventsFound} events matches the stored state`;
  const parts: string[] = [];
  if (eventsFound !== revision) parts.push(`${revision} events were stored but ${eventsFound} found`);
  for (const gap of gaps) parts.push(`the ${gap.scope} change log has ${gap.changesFound} of ${gap.revision} changes`);
  for (const difference of differences) {
    parts.push(`${difference.key}: stored ${show(difference.snapshot)}, replay gives ${show(difference.replayed)}`);
  }
  return parts.join("; ");
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
