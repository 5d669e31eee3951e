/**
 * State rules, pure. A key's prefix is its scope:
 *   temp:  the live session object only; stripped before an event is persisted, so never rebuilt
 *   app:   shared by every session of the app
 *   user:  shared by every session of the app's user
 *   other  this session only
 * A delta holds absolute values; `null` deletes. Applying a delta twice gives the same state.
 */
import { ReadOnlyStateError } from "./errors";
import type { JsonValue, State, StateDelta, StateScope } from "./types";

export const TEMP_PREFIX = "temp:";
export const APP_PREFIX = "app:";
export const USER_PREFIX = "user:";

export function scopeOf(key: string): StateScope {
  if (key.startsWith(TEMP_PREFIX)) return "temp";
  if (key.startsWith(APP_PREFIX)) return "app";
  if (key.startsWith(USER_PREFIX)) return "user";
  return "session";
}

/** Applies `delta` to `state` in place (absolute values, null deletes) and returns `state`. */
export function applyDelta(state: State, delta: StateDelta): State {
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) delete state[key];
    else state[key] = value;
  }
  return state;
}

/** A delta split by scope; a scope with no key is absent. */
interface ScopedDeltas {
  session: StateDelta;
  app?: StateDelta;
  user?: StateDelta;
  temp?: StateDelta;
}

export function splitDelta(delta: StateDelta): ScopedDeltas {
  const split: ScopedDeltas = { session: {} };
  for (const [key, value] of Object.entries(delta)) {
    const scope = scopeOf(key);
    (split[scope] ??= {})[key] = value;
  }
  return split;
}

/** The delta as persisted: every key but temp: ones, in the caller's order. */
export function persistedDelta(delta: StateDelta): { persisted: StateDelta; tempKeys: string[] } {
  const persisted: StateDelta = {};
  const tempKeys: string[] = [];
  for (const [key, value] of Object.entries(delta)) {
    if (scopeOf(key) === "temp") tempKeys.push(key);
    else persisted[key] = value;
  }
  return { persisted, tempKeys };
}

/** The keys of `state` in one scope. */
export function pickScope(state: State, scope: StateScope): State {
  const picked: State = {};
  for (const [key, value] of Object.entries(state)) if (scopeOf(key) === scope) picked[key] = value;
  return picked;
}

/** A deep copy as plain, writable data. */
export function copyState<T extends JsonValue | State>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

type Refuse = (path: string) => Error;

/** Views by refusal, then by target: one view per object, so that `view.a === view.a`. */
const VIEWS = new WeakMap<Refuse, WeakMap<object, object>>();

/**
 * A read-only view of `target`, deep: every write (set, delete, define, freeze) throws the error
 * `refuse` makes, naming the path written. The view is live: the service's own changes to
 * `target` show through it.
 */
export function readOnlyView<T extends object>(target: T, refuse: Refuse, path = ""): T {
  let views = VIEWS.get(refuse);
  if (!views) VIEWS.set(refuse, (views = new WeakMap()));
  const cached = views.get(target);
  if (cached) return cached as T;
  const at = (key: string | symbol) => (path ? `${path}.${String(key)}` : String(key));
  const view = new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      return value !== null && typeof value === "object" ? readOnlyView(value, refuse, at(key)) : value;
    },
    set: (_object, key) => {
      throw refuse(at(key));
    },
    deleteProperty: (_object, key) => {
      throw refuse(at(key));
    },
    defineProperty: (_object, key) => {
      throw refuse(at(key));
    },
    setPrototypeOf: () => {
      throw refuse(path || "(prototype)");
    },
    preventExtensions: () => {
      throw refuse(path || "(state)");
    },
  });
  views.set(target, view);
  return view;
}

export const refuseStateWrite: Refuse = (path) => ReadOnlyStateError.forState(path);
export const refuseEventWrite: Refuse = (path) => ReadOnlyStateError.forEvents(path);
