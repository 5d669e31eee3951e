/**
 * The session service on both real databases (embedded PGlite and the PostgreSQL server): create,
 * get, list, delete, event shape, scopes, idempotent append, read-only state, stale objects,
 * rebuild checks and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBacktrackError } from "@/lib/journal/errors";
import {
  EventTooLargeError,
  ReadOnlyStateError,
  RebuildMismatchError,
  SessionExistsError,
  SessionNotFoundError,
  StaleSessionError,
  type Session,
  type SessionService,
} from "@/lib/sessions";
import { SESSION_DATABASES, type SessionDatabase } from "./databases";

async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe.each(SESSION_DATABASES)("session service: $name", (kind) => {
  let database: SessionDatabase;
  let service: SessionService;

  beforeAll(async () => {
    database = await kind.open();
    service = database.service;
  });
  afterAll(async () => {
    await database.close();
  });

  it("creates a session, gets it back, lists it and deletes it with its events", async () => {
    const created = await service.create({ app: "crud", user: "ann", id: "crud-1", state: { greeting: "hi" } });
    expect(created).toMatchObject({ id: "crud-1", app: "crud", user: "ann", revision: 0, state: { greeting: "hi" } });
    expect(created.events).toEqual([]);
    const generated = await service.create({ app: "crud", user: "bob" });
    expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
    await service.appendEvent(created, { id: "hello", author: "user", content: { role: "user", parts: [{ text: "hello" }] } });

    const fetched = (await service.get("crud-1")) as Session;
    expect(fetched.toJSON()).toMatchObject({ id: "crud-1", app: "crud", user: "ann", revision: 1, state: { greeting: "hi" } });
    expect(fetched.events.map((event) => event.id)).toEqual(["hello"]);
    expect(await service.get("no-such-session")).toBeUndefined();

    expect((await service.listSessions({ app: "crud" })).map((session) => session.id).sort()).toEqual(["crud-1", generated.id].sort());
    expect((await service.listSessions({ app: "crud", user: "ann" })).map((session) => [session.id, session.revision])).toEqual([["crud-1", 1]]);
    expect((await service.listSessions({ user: "bob" })).map((session) => session.id)).toEqual([generated.id]);
    expect(await service.listSessions({ app: "no-such-app" })).toEqual([]);

    expect(await caught(() => service.create({ app: "crud", user: "ann", id: "crud-1" }))).toBeInstanceOf(SessionExistsError);
    expect(await service.delete("crud-1")).toBe(true);
    expect(await service.delete("crud-1")).toBe(false);
    expect(await service.get("crud-1")).toBeUndefined();
    expect(await caught(() => service.listEvents("crud-1"))).toBeInstanceOf(SessionNotFoundError);
    // The id is free again, and the new session starts with no events of the old one.
    const again = await service.create({ app: "crud", user: "ann", id: "crud-1" });
    expect(again.revision).toBe(0);
    expect(await service.listEvents("crud-1")).toEqual([]);
    expect(await caught(() => service.appendEvent({ id: "gone", revision: 0 }, { author: "user" }))).toBeInstanceOf(SessionNotFoundError);
  });

  it("stores events with their shape and reads them back exactly, in order, in pages", async () => {
    const session = await service.create({ app: "shape", user: "ann", id: "shape" });
    const content = { role: "model", parts: [{ text: `<b>"quoted"</b> ünïcödé 🦀` }, { functionCall: { name: "book", args: { n: 2 } } }] };
    const event = await service.appendEvent(session, {
      id: "e1",
      author: "booking-agent",
      invocationId: "inv-1",
      content,
      timestamp: "2026-11-02T10:00:15.123Z",
      actions: { stateDelta: { cart: { items: [{ seat: "A1" }, { seat: "A2" }], total: 90.5 }, note: "x" } },
    });
    expect(event).toEqual({
      id: "e1",
      author: "booking-agent",
      invocationId: "inv-1",
      content,
      timestamp: "2026-11-02T10:00:15.123Z",
      actions: { stateDelta: { cart: { items: [{ seat: "A1" }, { seat: "A2" }], total: 90.5 }, note: "x" } },
      index: 0,
    });
    // Absent timestamp: the database's clock; absent content: null; absent id: a UUID.
    const second = await service.appendEvent(session, { author: "user" });
    expect(second.index).toBe(1);
    expect(second.content).toBeNull();
    expect(second.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(Date.parse(second.timestamp) - Date.now())).toBeLessThan(60_000);
    for (let index = 2; index < 7; index += 1) await service.appendEvent(session, { id: `e${index + 1}`, author: "user" });

    const fetched = (await service.get("shape")) as Session;
    expect(fetched.events[0]).toEqual(event);
    expect(JSON.stringify(fetched.events[0]?.content)).toBe(JSON.stringify(content));
    expect(fetched.events.map((stored) => stored.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect((await service.listEvents("shape", { from: 2, limit: 3 })).map((stored) => stored.id)).toEqual(["e3", "e4", "e5"]);
    expect(await service.listEvents("shape", { from: 50 })).toEqual([]);
  });

  it("applies absolute deltas: null deletes a key, and the object and a fresh get agree", async () => {
    const session = await service.create({ app: "delta", user: "ann", id: "delta", state: { keep: 1, drop: 2 } });
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: { drop: null, cart: 2 } } });
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: { cart: 3, nested: { a: null, b: [1, null] } } } });
    const expected = { keep: 1, cart: 3, nested: { a: null, b: [1, null] } };
    expect(session.state).toEqual(expected);
    expect((await service.get("delta"))?.state).toEqual(expected);
    expect(await service.stateAt("delta", 0)).toEqual({ keep: 1, drop: 2 });
    expect(await service.stateAt("delta", 1)).toEqual({ keep: 1, cart: 2 });
    expect(await service.stateAt("delta", 2)).toEqual(expected);
    expect(isBacktrackError(await caught(() => service.stateAt("delta", 3)), "bad_input")).toBe(true);
    // Keys that need quoting in SQL are set and deleted like any other.
    const odd = ['we"ird\\key', "a,b", "{x}", "NULL", " spaced ", "ünï 🦀"];
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: Object.fromEntries(odd.map((key) => [key, key])) } });
    expect((await service.get("delta"))?.state).toEqual({ ...expected, ...Object.fromEntries(odd.map((key) => [key, key])) });
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: Object.fromEntries(odd.map((key) => [key, null])) } });
    expect((await service.get("delta"))?.state).toEqual(expected);
    expect(await caught(() => service.stateAt("no-such-session", 0))).toBeInstanceOf(SessionNotFoundError);
  });

  it("keeps temp: keys on the live object only: stripped before persisting, their names marked", async () => {
    const session = await service.create({ app: "temp", user: "ann", id: "temp" });
    const event = await service.appendEvent(session, { id: "quote", author: "agent", actions: { stateDelta: { "temp:quote": "Q-77", cart: 2 } } });
    expect(session.state).toEqual({ "temp:quote": "Q-77", cart: 2 });
    expect(event.actions).toEqual({ stateDelta: { cart: 2 }, tempKeys: ["temp:quote"] });
    const rows = await database.client.query<{ text: string }>(
      `SELECT state_delta::text || coalesce(temp_keys::text, '') || state::text AS text FROM session_events, sessions WHERE sessions.id = 'temp' AND session_id = 'temp'`,
    );
    expect(rows[0]?.text).not.toContain("Q-77");
    const fetched = (await service.get("temp")) as Session;
    expect(fetched.state).toEqual({ cart: 2 });
    expect(fetched.events[0]?.actions.tempKeys).toEqual(["temp:quote"]);
    // A temp: key set on the live object stays there across later appends through it.
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: { cart: 3 } } });
    expect(session.state["temp:quote"]).toBe("Q-77");
  });

  it("shares app: keys across the app's sessions and user: keys across the user's, and keeps them after a delete", async () => {
    const first = await service.create({ app: "shared", user: "ann", id: "shared-1" });
    await service.appendEvent(first, { author: "agent", actions: { stateDelta: { "app:theme": "dark", "user:tier": "gold", own: 1 } } });
    const sameUser = await service.create({ app: "shared", user: "ann", id: "shared-2" });
    const otherUser = await service.create({ app: "shared", user: "bob", id: "shared-3" });
    const otherApp = await service.create({ app: "elsewhere", user: "ann", id: "shared-4" });
    expect(sameUser.state).toEqual({ "app:theme": "dark", "user:tier": "gold" });
    expect(otherUser.state).toEqual({ "app:theme": "dark" });
    expect(otherApp.state).toEqual({});

    // Changes from another session reach every session's next get; deleting a shared key is a change too.
    await service.appendEvent(otherUser, { author: "agent", actions: { stateDelta: { "app:theme": "light", "user:tier": "silver" } } });
    await service.appendEvent(sameUser, { author: "agent", actions: { stateDelta: { "user:tier": null } } });
    expect((await service.get("shared-1"))?.state).toEqual({ "app:theme": "light", own: 1 });
    expect((await service.get("shared-3"))?.state).toEqual({ "app:theme": "light", "user:tier": "silver" });
    // stateAt is the session's own view: its own deltas, shared keys as it set them.
    expect(await service.stateAt("shared-1", 1)).toEqual({ "app:theme": "dark", "user:tier": "gold", own: 1 });

    expect(await service.delete("shared-1")).toBe(true);
    const later = (await service.get("shared-2")) as Session;
    expect(later.state).toEqual({ "app:theme": "light" });
    expect(later.rebuild?.ok).toBe(true);
  });

  it("drops an event id the session already stored: returns the stored event, stores and applies nothing", async () => {
    const session = await service.create({ app: "idem", user: "ann", id: "idem" });
    const first = await service.append(session, { id: "E5", author: "agent", actions: { stateDelta: { cart: 3, log: ["first"] } } });
    expect(first.created).toBe(true);
    await service.appendEvent(session, { id: "E6", author: "agent", actions: { stateDelta: { log: ["first", "second"] } } });
    // The retry of E5 (same object, and a stale copy of it): had it applied, log would go back to ["first"].
    const stale = { id: "idem", revision: 0 };
    for (const through of [session, stale]) {
      const retry = await service.append(through, { id: "E5", author: "agent", actions: { stateDelta: { cart: 3, log: ["first"] } } });
      expect(retry).toMatchObject({ created: false, matches: true, event: { id: "E5", index: 0 } });
      expect(retry.event).toEqual(first.event);
    }
    const different = await service.append(session, { id: "E5", author: "agent", actions: { stateDelta: { cart: 99 } } });
    expect(different).toMatchObject({ created: false, matches: false, event: { actions: { stateDelta: { cart: 3, log: ["first"] } } } });
    expect(session.revision).toBe(2);
    expect(session.state).toEqual({ cart: 3, log: ["first", "second"] });
    const fetched = (await service.get("idem")) as Session;
    expect(fetched.events.map((event) => event.id)).toEqual(["E5", "E6"]);
    expect(fetched.state).toEqual({ cart: 3, log: ["first", "second"] });
  });

  it("hands out read-only state: a direct write throws, says to use stateDelta, and records nothing", async () => {
    const session = await service.create({ app: "ro", user: "ann", id: "ro", state: { cart: 3, order: { seats: ["A1"] } } });
    const state = session.state as Record<string, unknown> & { order: { seats: string[] } };
    const writes: Array<() => unknown> = [
      () => (state.discount = "VIP"),
      () => delete state.cart,
      () => state.order.seats.push("A2"),
      () => ((session as unknown as { state: unknown }).state = { discount: "VIP" }),
      () => (session.events as unknown as unknown[]).push({ id: "forged" }),
      () => Object.assign(session.initialState, { cart: 0 }),
      () => ((session.toJSON().state as Record<string, unknown>).discount = "VIP"),
    ];
    for (const write of writes) {
      const error = await caught(write);
      expect(error).toBeInstanceOf(ReadOnlyStateError);
      expect(isBacktrackError(error, "read_only_state")).toBe(true);
    }
    expect(((await caught(writes[0] as () => unknown)) as Error).message).toMatch(/stateDelta: \{ "discount": /);
    const fetched = (await service.get("ro")) as Session;
    expect(fetched.state).toEqual({ cart: 3, order: { seats: ["A1"] } });
    expect(fetched.events).toEqual([]);
    // A writable copy is there for code that wants one; changing it changes nothing stored.
    const copy = fetched.stateCopy();
    copy.discount = "VIP";
    expect(fetched.state.discount).toBeUndefined();
  });

  it("refuses an append through a stale object and never overwrites; a reload and retry lands", async () => {
    const session = await service.create({ app: "stale", user: "ann", id: "stale" });
    const mine = (await service.get("stale")) as Session;
    const theirs = (await service.get("stale")) as Session;
    await service.appendEvent(theirs, { id: "theirs", author: "agent", actions: { stateDelta: { cart: 2 } } });
    const error = await caught(() => service.appendEvent(mine, { id: "mine", author: "agent", actions: { stateDelta: { cart: 5 } } }));
    expect(error).toBeInstanceOf(StaleSessionError);
    expect(error).toMatchObject({ code: "stale_session", sessionId: "stale", eventId: "mine", revision: 0, storedRevision: 1 });
    expect(mine.revision).toBe(0);
    expect(mine.state).toEqual({});
    expect((await service.get("stale"))?.events.map((event) => event.id)).toEqual(["theirs"]);
    expect(session.revision).toBe(0);

    const reloaded = (await service.get("stale")) as Session;
    await service.appendEvent(reloaded, { id: "mine", author: "agent", actions: { stateDelta: { cart: (reloaded.state.cart as number) + 3 } } });
    const final = (await service.get("stale")) as Session;
    expect(final.events.map((event) => event.id)).toEqual(["theirs", "mine"]);
    expect(final.state).toEqual({ cart: 5 });
  });

  it("reports a stored snapshot that disagrees with the replay, never hiding it", async () => {
    const session = await service.create({ app: "tamper", user: "ann", id: "tamper" });
    await service.appendEvent(session, { author: "agent", actions: { stateDelta: { cart: 3, "app:banner": "sale" } } });
    expect((await service.get("tamper"))?.rebuild).toMatchObject({ ok: true, revision: 1, eventsFound: 1 });

    await database.client.exec(`UPDATE sessions SET state = '{"cart": 4, "discount": "VIP"}' WHERE id = 'tamper'`);
    const error = await caught(() => service.get("tamper"));
    expect(error).toBeInstanceOf(RebuildMismatchError);
    expect((error as Error).message).toContain("cart: stored 4, replay gives 3");
    const reported = (await service.get("tamper", { onMismatch: "report" })) as Session;
    expect(reported.state).toEqual({ cart: 3, "app:banner": "sale" });
    expect(reported.rebuild?.differences).toEqual([
      { scope: "session", key: "cart", snapshot: 4, replayed: 3 },
      { scope: "session", key: "discount", snapshot: "VIP", replayed: undefined },
    ]);

    await database.client.exec(`UPDATE sessions SET state = '{"cart": 3}' WHERE id = 'tamper'`);
    await database.client.exec(`UPDATE session_shared_states SET state = '{"app:banner": "none"}' WHERE app = 'tamper'`);
    const shared = (await service.get("tamper", { onMismatch: "report" })) as Session;
    expect(shared.rebuild?.differences).toEqual([{ scope: "app", key: "app:banner", snapshot: "none", replayed: "sale" }]);

    await database.client.exec(`UPDATE session_shared_states SET state = '{"app:banner": "sale"}' WHERE app = 'tamper'`);
    await database.client.exec(`DELETE FROM session_events WHERE session_id = 'tamper'`);
    const lost = (await service.get("tamper", { onMismatch: "report" })) as Session;
    expect(lost.rebuild).toMatchObject({ ok: false, revision: 1, eventsFound: 0 });
    expect(lost.rebuild?.summary).toContain("1 events were stored but 0 found");
  });

  it("refuses bad input with typed errors and stores nothing", async () => {
    const session = await service.create({ app: "bad", user: "ann", id: "bad" });
    const badEvents: unknown[] = [
      { author: "" },
      { author: "agent", id: "" },
      { author: "agent", id: "x\u0000y" },
      { author: "agent", actions: { stateDelta: { cart: undefined } } },
      { author: "agent", actions: { stateDelta: { cart: Number.NaN } } },
      { author: "agent", actions: { stateDelta: { cart: "nul\u0000" } } },
      { author: "agent", actions: { stateDelta: { "": 1 } } },
      { author: "agent", actions: { stateDelta: { "app:": 1 } } },
      { author: "agent", actions: { stateDelta: { when: new Date() } } },
      { author: "agent", actions: { stateDelta: { cart: 1 }, escalate: true } },
      { author: "agent", partial: true },
      { author: "agent", timestamp: "not a date" },
      { author: "agent", content: { fn: () => 1 } },
      { author: "agent", content: [1, Number.POSITIVE_INFINITY] },
      { author: "agent", content: { at: new Date() } },
      { author: "agent", content: { symbol: Symbol("not JSON") } },
      { author: "agent", content: { nested: [{ gone: undefined }] } },
    ];
    for (const bad of badEvents) {
      const error = await caught(() => service.appendEvent(session, bad as never));
      expect(isBacktrackError(error, "bad_input"), JSON.stringify(bad)).toBe(true);
    }
    const badCreates: unknown[] = [
      { app: "", user: "ann" },
      { app: "bad", user: "ann", state: { "app:theme": "dark" } },
      { app: "bad", user: "ann", state: { "temp:quote": "Q" } },
      { app: "bad", user: "ann", state: { cart: null } },
      { app: "bad", user: "ann", id: "x".repeat(300) },
    ];
    for (const bad of badCreates) expect(isBacktrackError(await caught(() => service.create(bad as never)), "bad_input"), JSON.stringify(bad)).toBe(true);
    expect(isBacktrackError(await caught(() => service.appendEvent({ id: "bad", revision: -1 }, { author: "agent" })), "bad_input")).toBe(true);
    expect(isBacktrackError(await caught(() => service.get("")), "bad_input")).toBe(true);
    // A legitimate backslash sequence is not mistaken for NUL.
    await service.appendEvent(session, { id: "slash", author: "agent", actions: { stateDelta: { path: "C:\\u0000dir" } } });
    expect((await service.get("bad"))?.state).toEqual({ path: "C:\\u0000dir" });
    expect((await service.get("bad"))?.events.map((event) => event.id)).toEqual(["slash"]);
  });

  it("refuses an event over the size limit and writes nothing", async () => {
    const { SessionService } = await import("@/lib/sessions");
    const small = new SessionService(database.client, { eventLimitBytes: 1024 });
    const session = await small.create({ app: "big", user: "ann", id: "big" });
    const error = await caught(() => small.appendEvent(session, { author: "agent", content: "x".repeat(2000) }));
    expect(error).toBeInstanceOf(EventTooLargeError);
    expect(error).toMatchObject({ code: "payload_too_large", limitBytes: 1024 });
    expect((await small.get("big"))?.revision).toBe(0);
  });
});
