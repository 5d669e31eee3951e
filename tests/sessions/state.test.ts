/**
 * The state rules and projections, pure (no database): scopes, absolute deltas, read-only views,
 * the timeline the inspector draws, and the rebuild comparison.
 */
import { describe, expect, it } from "vitest";
import { isBacktrackError } from "@/lib/journal/errors";
import { ReadOnlyStateError, rebuild, replayState, scopeOf, sessionTimeline, type SessionEvent, type TimelineEvent } from "@/lib/sessions";
import { readOnlyView, refuseStateWrite } from "@/lib/sessions/state";

function stored(index: number, stateDelta: SessionEvent["actions"]["stateDelta"], tempKeys?: string[]): SessionEvent {
  return {
    id: `E${index + 1}`,
    author: "agent",
    invocationId: "inv",
    content: null,
    timestamp: new Date(0).toISOString(),
    actions: tempKeys ? { stateDelta, tempKeys } : { stateDelta },
    index,
  };
}

describe("state rules", () => {
  it("reads a key's scope from its prefix", () => {
    expect(["temp:quote", "app:theme", "user:tier", "cart", "apple:pie", "temporary"].map(scopeOf)).toEqual(["temp", "app", "user", "session", "session", "session"]);
  });

  it("replays absolute deltas: the last value wins, null deletes, and replaying a delta twice changes nothing", () => {
    const events = [stored(0, { cart: 2, note: "hi" }), stored(1, { cart: 3, note: null }), stored(2, { cart: 3 })];
    expect(replayState({ base: true }, events)).toEqual({ base: true, cart: 3 });
    expect(replayState({ base: true }, events, 1)).toEqual({ base: true, cart: 2, note: "hi" });
    expect(replayState({ base: true }, events, 0)).toEqual({ base: true });
    const twice = [...events, events[1] as SessionEvent];
    expect(replayState({}, twice)).toEqual(replayState({}, events));
  });

  it("gives a deep read-only view whose every write names stateDelta", () => {
    const state = { cart: 2, order: { items: [1, 2] } };
    const view = readOnlyView(state, refuseStateWrite) as Record<string, unknown> & typeof state;
    const writes: Array<() => unknown> = [
      () => (view.cart = 5),
      () => delete (view as Partial<typeof state>).cart,
      () => view.order.items.push(3),
      () => (view.order.items[0] = 9),
      () => Object.assign(view, { discount: "VIP" }),
      () => Object.defineProperty(view, "discount", { value: "VIP" }),
      () => Object.freeze(view),
    ];
    for (const write of writes) {
      const error = (() => {
        try {
          write();
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ReadOnlyStateError);
      expect(isBacktrackError(error, "read_only_state")).toBe(true);
      expect((error as Error).message).toContain("stateDelta");
    }
    expect(state).toEqual({ cart: 2, order: { items: [1, 2] } });
    expect(JSON.parse(JSON.stringify(view))).toEqual(state);
    expect({ ...view }).toEqual(state);
  });
});

describe("sessionTimeline", () => {
  it("gives the state after each event with the keys each changed, temp: keys marked as never persisted", () => {
    const live: TimelineEvent[] = [
      { id: "E1", actions: { stateDelta: { cart: 2 } } },
      { id: "E2", actions: { stateDelta: { "temp:quote": "Q-77", "app:theme": "dark" } } },
      { id: "E3", actions: { stateDelta: { cart: null } } },
    ];
    const steps = sessionTimeline({ user_name: "ann" }, live);
    expect(steps.map((step) => step.at)).toEqual([1, 2, 3]);
    expect(steps[0]?.state).toEqual({ user_name: "ann", cart: 2 });
    expect(steps[1]?.changes).toEqual([
      { key: "temp:quote", scope: "temp", kind: "set", before: undefined, after: "Q-77", persisted: false },
      { key: "app:theme", scope: "app", kind: "set", before: undefined, after: "dark", persisted: true },
    ]);
    expect(steps[2]?.changes).toEqual([{ key: "cart", scope: "session", kind: "delete", before: 2, after: undefined, persisted: true }]);
    expect(steps[2]?.state).toEqual({ user_name: "ann", "temp:quote": "Q-77", "app:theme": "dark" });
    // Each step owns its state: later steps do not change earlier ones.
    expect(steps[0]?.state).toEqual({ user_name: "ann", cart: 2 });
  });

  it("marks a stored event's stripped temp: keys as unrecorded, with no value", () => {
    const steps = sessionTimeline({}, [stored(0, {}, ["temp:quote"])]);
    expect(steps[0]?.changes).toEqual([{ key: "temp:quote", scope: "temp", kind: "unrecorded", before: undefined, after: undefined, persisted: false }]);
    expect(steps[0]?.state).toEqual({});
  });
});

describe("rebuild", () => {
  const events = [stored(0, { cart: 2, "app:theme": "dark" }), stored(1, { cart: 3 })];
  const app = { snapshot: { "app:theme": "dark" }, revision: 1, changes: [{ revision: 1, delta: { "app:theme": "dark" } }] };
  const user = { snapshot: null, revision: 0, changes: [] };

  it("serves session keys from the session's events and shared keys from their logs", () => {
    const result = rebuild({ initialState: {}, snapshot: { cart: 3 }, revision: 2, events, app, user });
    expect(result.check.ok).toBe(true);
    expect(result.state).toEqual({ cart: 3, "app:theme": "dark" });
  });

  it("reports a snapshot that differs from the replay, key by key, and lost events", () => {
    const result = rebuild({ initialState: {}, snapshot: { cart: 4, discount: "VIP" }, revision: 3, events, app, user });
    expect(result.check.ok).toBe(false);
    expect(result.check.differences).toEqual([
      { scope: "session", key: "cart", snapshot: 4, replayed: 3 },
      { scope: "session", key: "discount", snapshot: "VIP", replayed: undefined },
    ]);
    expect(result.check.eventsFound).toBe(2);
    expect(result.check.summary).toContain("3 events were stored but 2 found");
    expect(result.state).toEqual({ cart: 3, "app:theme": "dark" });
  });

  it("ignores key order inside values (jsonb reorders keys) and reports a gap in a shared log", () => {
    const result = rebuild({
      initialState: {},
      snapshot: { cart: { b: 1, a: [1, { y: 2, x: 1 }] } },
      revision: 1,
      events: [stored(0, { cart: { a: [1, { x: 1, y: 2 }], b: 1 } })],
      app: { snapshot: { "app:theme": "dark" }, revision: 2, changes: [{ revision: 2, delta: { "app:theme": "dark" } }] },
      user,
    });
    expect(result.check.differences).toEqual([]);
    expect(result.check.sharedLogGaps).toEqual([{ scope: "app", revision: 2, changesFound: 1 }]);
    expect(result.check.ok).toBe(false);
  });
});
