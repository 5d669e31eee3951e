/** The session service's errors: each a BacktrackError with a stable code and typed fields. */
import { BacktrackError } from "../journal/errors";
import type { RebuildCheck } from "./types";

/**
 * An append through a session object loaded before storage moved on. Nothing was written: load
 * the session again with `get`, re-apply the change to the fresh state, and append again.
 */
export class StaleSessionError extends BacktrackError {
  constructor(
    readonly sessionId: string,
    readonly eventId: string,
    /** The revision of the object the append was made through. */
    readonly revision: number,
    /** The revision storage holds. */
    readonly storedRevision: number,
  ) {
    super(
      "stale_session",
      `session "${sessionId}" is stale: this object was loaded at revision ${revision} but storage is at revision ${storedRevision}; ` +
        `event "${eventId}" was not written. Load the session again with get() and append again`,
    );
  }
}

export class SessionNotFoundError extends BacktrackError {
  constructor(readonly sessionId: string) {
    super("not_found", `no session with id "${sessionId}"`);
  }
}

export class SessionExistsError extends BacktrackError {
  constructor(readonly sessionId: string) {
    super("session_exists", `a session with id "${sessionId}" already exists; get() it, or create one with another id`);
  }
}

/** A write to the state (or events) of a session object: such a write would never be recorded. */
export class ReadOnlyStateError extends BacktrackError {
  constructor(
    /** The property written, as a path: `discount`, `cart.items`. */
    readonly key: string,
    message: string,
  ) {
    super("read_only_state", message);
  }

  static forState(key: string): ReadOnlyStateError {
    const top = key.split(".")[0] ?? key;
    return new ReadOnlyStateError(
      key,
      `session state is read-only (a write to "${key}" would never be recorded, and a rebuild from storage would lose it). ` +
        `Record the change as an event: appendEvent(session, { author, actions: { stateDelta: { ${JSON.stringify(top)}: <new value> } } })`,
    );
  }

  static forEvents(key: string): ReadOnlyStateError {
    return new ReadOnlyStateError(key, `session events are read-only (a write to "${key}" would never be recorded); add events with appendEvent(session, event)`);
  }
}

/** The stored snapshots disagree with the replay of the stored deltas (thrown by get() unless asked to report). */
export class RebuildMismatchError extends BacktrackError {
  constructor(
    readonly sessionId: string,
    readonly check: RebuildCheck,
  ) {
    super("rebuild_mismatch", `session "${sessionId}": the stored state does not match the replay of its events: ${check.summary}`);
  }
}

/** An event whose content and delta exceed the service's limit; nothing was written. */
export class EventTooLargeError extends BacktrackError {
  constructor(
    readonly sessionId: string,
    readonly eventId: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super("payload_too_large", `event "${eventId}" of session "${sessionId}" is ${bytes} bytes, over the ${limitBytes}-byte limit; nothing was written`);
  }
}
