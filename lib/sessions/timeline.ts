/**
 * Pure projections of a session's history, shared by the service (rebuild), the CLI, the API and
 * the inspector's timeline: the state after the first N events, and per event the keys it changed.
 */
import { applyDelta, scopeOf } from "./state";
import type { JsonValue, State, StateDelta, StateScope } from "./types";

/** An event as the projections need it: a stored SessionEvent, or a live one (temp: values still in its delta). */
export interface TimelineEvent {
  id?: string;
  author?: string;
  timestamp?: string | number | Date;
  actions?: { stateDelta?: Record<string, unknown>; tempKeys?: string[] };
}

function deltaOf(event: TimelineEvent | undefined): StateDelta {
  return (event?.actions?.stateDelta ?? {}) as StateDelta;
}

export interface KeyChange {
  key: string;
  scope: StateScope;
  /** "unrecorded": a temp: key the event set on the live session; only its name was stored. */
  kind: "set" | "delete" | "unrecorded";
  /** undefined: absent (or, for "unrecorded", unknown). */
  before: JsonValue | undefined;
  after: JsonValue | undefined;
  /** false for temp: keys: a rebuild from storage never has them. */
  persisted: boolean;
}

export interface TimelineStep {
  /** The event's index in the session. */
  index: number;
  /** The `at` that shows this state: the state after the first `at` events (index + 1). */
  at: number;
  eventId: string | undefined;
  author: string | undefined;
  timestamp: string | undefined;
  changes: KeyChange[];
  /** The state after this event (its own copy). */
  state: State;
}

/** The state after the first `upTo` events (all of them by default), replayed onto a copy of `initial`. */
export function replayState(initial: State, events: readonly TimelineEvent[], upTo = events.length): State {
  const state: State = { ...initial };
  const end = Math.min(Math.max(upTo, 0), events.length);
  for (let index = 0; index < end; index += 1) applyDelta(state, deltaOf(events[index]));
  return state;
}

/** The keys one event changed, against the state before it (which is not modified). */
export function eventChanges(before: State, event: TimelineEvent): KeyChange[] {
  const changes: KeyChange[] = [];
  for (const [key, value] of Object.entries(deltaOf(event))) {
    const scope = scopeOf(key);
    changes.push({ key, scope, kind: value === null ? "delete" : "set", before: before[key], after: value === null ? undefined : value, persisted: scope !== "temp" });
  }
  for (const key of event.actions?.tempKeys ?? []) {
    if (changes.some((change) => change.key === key)) continue;
    changes.push({ key, scope: "temp", kind: "unrecorded", before: undefined, after: undefined, persisted: false });
  }
  return changes;
}

/** Every step of the history: the state after each event, with the keys that event changed, temp: keys marked. */
export function sessionTimeline(initial: State, events: readonly TimelineEvent[]): TimelineStep[] {
  const steps: TimelineStep[] = [];
  let state: State = { ...initial };
  events.forEach((event, index) => {
    const changes = eventChanges(state, event);
    state = applyDelta({ ...state }, deltaOf(event));
    const timestamp = event.timestamp === undefined ? undefined : typeof event.timestamp === "string" ? event.timestamp : new Date(event.timestamp).toISOString();
    steps.push({ index, at: index + 1, eventId: event.id, author: event.author, timestamp, changes, state });
  });
  return steps;
}
