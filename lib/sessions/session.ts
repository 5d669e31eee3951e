/**
 * A Session as handed out by the service. Its state and events are read-only views: a write
 * throws ReadOnlyStateError, because a change that is not an event is never persisted and a
 * rebuild from storage would silently lose it. Only the service advances a session (appendEvent).
 */
import { applyDelta, copyState, readOnlyView, refuseEventWrite, refuseStateWrite } from "./state";
import type { RebuildCheck, SessionEvent, State, StateDelta } from "./types";

interface SessionData {
  id: string;
  app: string;
  user: string;
  /** Session-scoped state given to create (the base of the replay). */
  initialState: State;
  state: State;
  events: SessionEvent[];
  revision: number;
  createdAt: string;
  updatedAt: string;
  rebuild: RebuildCheck | null;
}

export class Session {
  readonly id: string;
  readonly app: string;
  readonly user: string;
  readonly createdAt: string;
  readonly initialState: Readonly<State>;
  #initialState: State;
  #state: State;
  #events: SessionEvent[];
  #revision: number;
  #updatedAt: string;
  #rebuild: RebuildCheck | null;

  constructor(data: SessionData) {
    this.id = data.id;
    this.app = data.app;
    this.user = data.user;
    this.createdAt = data.createdAt;
    this.#initialState = data.initialState;
    this.initialState = readOnlyView(data.initialState, refuseStateWrite);
    this.#state = data.state;
    this.#events = data.events;
    this.#revision = data.revision;
    this.#updatedAt = data.updatedAt;
    this.#rebuild = data.rebuild;
  }

  /** The live state: session, app: and user: keys, plus temp: keys set through this object. Read-only. */
  get state(): Readonly<State> {
    return readOnlyView(this.#state, refuseStateWrite);
  }

  set state(_value: Readonly<State>) {
    throw refuseStateWrite("(state)");
  }

  get events(): readonly SessionEvent[] {
    return readOnlyView(this.#events, refuseEventWrite);
  }

  set events(_value: readonly SessionEvent[]) {
    throw refuseEventWrite("(events)");
  }

  /** How many events storage held when this object was loaded or last appended through. */
  get revision(): number {
    return this.#revision;
  }

  get updatedAt(): string {
    return this.#updatedAt;
  }

  /** What get() found comparing the stored snapshots with the replay; null for a session not loaded by get(). */
  get rebuild(): RebuildCheck | null {
    return this.#rebuild;
  }

  /** A writable deep copy of the state (changing it changes nothing stored). */
  stateCopy(): State {
    return copyState(this.#state);
  }

  /** For JSON.stringify: read-only views, so that the result cannot be used to write around the rules. */
  toJSON() {
    return {
      id: this.id,
      app: this.app,
      user: this.user,
      state: this.state,
      events: this.events,
      revision: this.#revision,
      createdAt: this.createdAt,
      updatedAt: this.#updatedAt,
      rebuild: this.#rebuild,
    };
  }

  /** @internal The plain history and state, for the library's own projections (never handed to callers to write). */
  static data(session: Session): { events: readonly SessionEvent[]; state: State; initialState: State } {
    return { events: session.#events, state: session.#state, initialState: session.#initialState };
  }

  /**
   * @internal The service's step after a stored append: the event joins the history, its delta
   * (temp: keys included, which live only here) applies to the state, the revision moves on.
   */
  static advance(session: Session, event: SessionEvent, liveDelta: StateDelta, revision: number, updatedAt: string): void {
    session.#events.push(event);
    applyDelta(session.#state, copyState(liveDelta));
    session.#revision = revision;
    session.#updatedAt = updatedAt;
  }
}
