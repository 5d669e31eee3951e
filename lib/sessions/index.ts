/** Sessions (Google ADK semantics): event logs whose state is rebuilt from persisted state deltas. */
export { SessionService, type SessionServiceOptions, type GetOptions } from "./service";
export { Session } from "./session";
export { sessionView, rebuildReport, type SessionView, type RebuildReport } from "./view";
export { sessionTimeline, replayState, eventChanges, type TimelineStep, type TimelineEvent, type KeyChange } from "./timeline";
export { stateRows, sessionStep, historyTimeline, rebuildRows, type StateRow, type StateRows, type SessionHistory, type SessionStep, type RebuildRow } from "./inspector";
export { rebuild, type StoredSession, type SharedLog, type Rebuilt } from "./rebuild";
export { scopeOf, applyDelta, splitDelta, persistedDelta, TEMP_PREFIX, APP_PREFIX, USER_PREFIX } from "./state";
export { StaleSessionError, SessionNotFoundError, SessionExistsError, ReadOnlyStateError, RebuildMismatchError, EventTooLargeError } from "./errors";
export type * from "./types";
