/**
 * Pure projections the session inspector draws (/sessions/{id}?at=N): the state as of event N as
 * rows, each with its scope and the change event N made to it, and the rebuild check as a
 * key-by-key comparison of the stored snapshots with the replay. Client-safe: no database, no Node.
 */
import { scopeOf } from "./state";
import { sessionTimeline, type KeyChange, type TimelineEvent, type TimelineStep } from "./timeline";
import type { JsonValue, RebuildCheck, State, StateScope } from "./types";

/** The scopes in the order the inspector lists them: the session's own keys, then the shared ones. */
const SCOPE_ORDER: Record<StateScope, number> = { session: 0, app: 1, user: 2, temp: 3 };

export interface StateRow {
  key: string;
  scope: StateScope;
  /** The value as of the step; undefined when the key is absent (deleted by this event, or temp:). */
  value: JsonValue | undefined;
  /** What the step's event did to this key; undefined if it left the key alone. */
  change?: KeyChange;
  /** app: and user: keys: every session of the app (or of the app's user) sees and writes them. */
  shared: boolean;
}

export interface StateRows {
  /** The persisted state (what a rebuild from storage has), keys changed by the event included. */
  persisted: StateRow[];
  /** temp: keys the event set on the live session: applied there only, never stored. */
  temp: StateRow[];
}

function byScopeThenKey(a: StateRow, b: StateRow): number {
  return SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** The rows of a state as of a step, given the changes that step's event made (none at step 0). */
export function stateRows(state: State, changes: readonly KeyChange[]): StateRows {
  const byKey = new Map(changes.map((change) => [change.key, change]));
  const persisted: StateRow[] = [];
  const temp: StateRow[] = [];
  for (const [key, value] of Object.entries(state)) {
    const scope = scopeOf(key);
    // A live state may carry temp: keys; the persisted view never does.
    if (scope === "temp") continue;
    persisted.push({ key, scope, value, change: byKey.get(key), shared: scope === "app" || scope === "user" });
  }
  for (const change of changes) {
    if (change.scope === "temp") temp.push({ key: change.key, scope: "temp", value: undefined, change, shared: false });
    // A deleted key is gone from the state, but the row shows what the event removed.
    else if (!(change.key in state)) persisted.push({ key: change.key, scope: change.scope, value: undefined, change, shared: change.scope === "app" || change.scope === "user" });
  }
  return { persisted: persisted.sort(byScopeThenKey), temp: temp.sort(byScopeThenKey) };
}

/** What the inspector needs of a session to scrub it: its initial state, events and the state get() serves. */
export interface SessionHistory {
  initialState: State;
  events: readonly TimelineEvent[];
  /** The rebuilt state get() serves (app: and user: keys from their shared logs). */
  state: State;
}

export interface SessionStep {
  /** The state shown is the state after the first `at` events (0: the initial state). */
  at: number;
  /** The event at index at - 1, which made the step; undefined at 0. */
  eventIndex: number | undefined;
  state: State;
  changes: KeyChange[];
  rows: StateRows;
}

/**
 * The step at `at` (clamped to 0…events) from a precomputed timeline. As in sessionView, the last
 * step shows the state get() serves: its app: and user: keys are their scopes' current values.
 */
export function sessionStep(history: SessionHistory, timeline: readonly TimelineStep[], at: number): SessionStep {
  const last = history.events.length;
  const index = Math.min(Math.max(Number.isFinite(at) ? Math.trunc(at) : last, 0), last);
  const step = index > 0 ? timeline[index - 1] : undefined;
  const state = index === last && last > 0 ? history.state : (step?.state ?? history.initialState);
  const changes = step?.changes ?? [];
  return { at: index, eventIndex: index > 0 ? index - 1 : undefined, state, changes, rows: stateRows(state, changes) };
}

/** Every step of a session's history (see sessionTimeline), for scrubbing without a request per step. */
export function historyTimeline(history: SessionHistory): TimelineStep[] {
  return sessionTimeline(history.initialState, history.events);
}

export interface RebuildRow {
  key: string;
  scope: Exclude<StateScope, "temp">;
  /** What replaying the stored deltas gives (what get() serves); undefined: absent. */
  replayed: JsonValue | undefined;
  /** What the stored snapshot holds; undefined: absent. */
  snapshot: JsonValue | undefined;
  matches: boolean;
}

/**
 * The rebuild check key by key: every key of the replayed state and every key of a difference,
 * the differences first. A key that is not a difference holds the same value on both sides.
 */
export function rebuildRows(replayed: State, check: Pick<RebuildCheck, "differences">): RebuildRow[] {
  const rows = new Map<string, RebuildRow>();
  for (const [key, value] of Object.entries(replayed)) {
    const scope = scopeOf(key);
    if (scope === "temp") continue;
    rows.set(key, { key, scope, replayed: value, snapshot: value, matches: true });
  }
  for (const difference of check.differences) {
    rows.set(difference.key, { key: difference.key, scope: difference.scope, replayed: difference.replayed, snapshot: difference.snapshot, matches: false });
  }
  return [...rows.values()].sort((a, b) => Number(a.matches) - Number(b.matches) || SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
