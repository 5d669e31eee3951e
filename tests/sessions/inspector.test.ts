/**
 * The session inspector's projections (lib/sessions/inspector.ts), pure, on the seed's ticket-booking
 * events; and rebuildReport, which the "Rebuild check" button calls, on PGlite and the server with a
 * snapshot planted through SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TICKET_BOOKING, writeTicketBooking } from "@/lib/demo/ticket-booking";
import { historyTimeline, rebuildReport, rebuildRows, sessionStep, sessionView, stateRows, type SessionEvent, type SessionHistory } from "@/lib/sessions";
import { SESSION_DATABASES, type SessionDatabase } from "./databases";

function stored(index: number, stateDelta: SessionEvent["actions"]["stateDelta"], tempKeys?: string[]): SessionEvent {
  return {
    id: `E${index + 1}`,
    author: index % 3 === 0 ? "user" : "booking-agent",
    invocationId: "inv",
    content: null,
    timestamp: new Date(0).toISOString(),
    actions: tempKeys ? { stateDelta, tempKeys } : { stateDelta },
    index,
  };
}

/** The seed's E1–E6 as stored: temp:quote kept by name only. */
const TICKETS: SessionEvent[] = [stored(0, {}), stored(1, { cart: 2 }), stored(2, {}, ["temp:quote"]), stored(3, {}), stored(4, { cart: 3 }), stored(5, { discount: "VIP" })];
const HISTORY: SessionHistory = { initialState: {}, events: TICKETS, state: { cart: 3, discount: "VIP" } };

describe("the state as of event N", () => {
  const timeline = historyTimeline(HISTORY);
  const at = (n: number) => sessionStep(HISTORY, timeline, n);

  it("scrubs the seed's session: cart 2 after E2, temp:quote at E3 only by name, cart 3 after E5, VIP after E6", () => {
    expect(at(0)).toMatchObject({ at: 0, eventIndex: undefined, state: {}, changes: [], rows: { persisted: [], temp: [] } });
    expect(at(2).rows.persisted).toEqual([
      { key: "cart", scope: "session", value: 2, shared: false, change: expect.objectContaining({ kind: "set", before: undefined, after: 2 }) },
    ]);

    const third = at(3);
    expect(third.state).toEqual({ cart: 2 });
    expect(third.rows.persisted).toEqual([{ key: "cart", scope: "session", value: 2, shared: false, change: undefined }]);
    expect(third.rows.temp).toEqual([
      { key: "temp:quote", scope: "temp", value: undefined, shared: false, change: expect.objectContaining({ kind: "unrecorded", persisted: false }) },
    ]);

    expect(at(5).rows.persisted).toEqual([{ key: "cart", scope: "session", value: 3, shared: false, change: expect.objectContaining({ before: 2, after: 3 }) }]);
    const sixth = at(6);
    expect(sixth.eventIndex).toBe(5);
    expect(sixth.rows.persisted.map((row) => [row.key, row.value, row.change?.after])).toEqual([
      ["cart", 3, undefined],
      ["discount", "VIP", "VIP"],
    ]);
    expect(sixth.rows.temp).toEqual([]);
  });

  it("clamps the cursor to 0…events and shows the served state at the last step", () => {
    expect(at(-4).at).toBe(0);
    expect(at(99).at).toBe(6);
    expect(at(Number.NaN).at).toBe(6);
    // The served state wins at the end (shared keys come from their logs, which other sessions also write).
    const served = sessionStep({ ...HISTORY, state: { cart: 3, discount: "VIP", "app:theme": "dark" } }, timeline, 6);
    expect(served.rows.persisted.find((row) => row.key === "app:theme")).toEqual({ key: "app:theme", scope: "app", value: "dark", shared: true, change: undefined });
    expect(sessionStep({ ...HISTORY, state: { cart: 99 } }, timeline, 5).state).toEqual({ cart: 3 });
  });

  it("lists session keys before shared ones, marks app: and user: keys shared, keeps a deleted key's row, and never lists a live temp: value as persisted", () => {
    const rows = stateRows({ "user:tier": "gold", zebra: 1, "app:theme": "dark", apple: 2, "temp:live": "x" }, [
      { key: "gone", scope: "session", kind: "delete", before: 5, after: undefined, persisted: true },
      { key: "user:tier", scope: "user", kind: "set", before: "silver", after: "gold", persisted: true },
      { key: "temp:live", scope: "temp", kind: "set", before: undefined, after: "x", persisted: false },
    ]);
    expect(rows.persisted.map((row) => [row.key, row.shared, row.value, row.change?.kind])).toEqual([
      ["apple", false, 2, undefined],
      ["gone", false, undefined, "delete"],
      ["zebra", false, 1, undefined],
      ["app:theme", true, "dark", undefined],
      ["user:tier", true, "gold", "set"],
    ]);
    expect(rows.temp.map((row) => row.key)).toEqual(["temp:live"]);
  });
});

describe("the rebuild comparison", () => {
  it("lists every key, the divergences first, with both sides", () => {
    const rows = rebuildRows(
      { cart: 3, "app:theme": "dark", "temp:quote": "Q-77" },
      {
        differences: [
          { scope: "session", key: "discount", snapshot: "VIP", replayed: undefined },
          { scope: "session", key: "cart", snapshot: 5, replayed: 3 },
        ],
      },
    );
    expect(rows).toEqual([
      { key: "cart", scope: "session", replayed: 3, snapshot: 5, matches: false },
      { key: "discount", scope: "session", replayed: undefined, snapshot: "VIP", matches: false },
      { key: "app:theme", scope: "app", replayed: "dark", snapshot: "dark", matches: true },
    ]);
    expect(rebuildRows({ cart: 3 }, { differences: [] })).toEqual([{ key: "cart", scope: "session", replayed: 3, snapshot: 3, matches: true }]);
  });
});

describe.each(SESSION_DATABASES)("rebuildReport: $name", { timeout: 120_000 }, (kind) => {
  let database: SessionDatabase;

  beforeAll(async () => {
    database = await kind.open();
    await writeTicketBooking(database.service);
  });
  afterAll(async () => {
    await database.close();
  });

  it("says the seed's session matches, and the session view carries the initial state the timeline replays onto", async () => {
    const report = await rebuildReport(database.service, TICKET_BOOKING.id);
    expect(report).toMatchObject({ id: "ticket-booking", revision: 6, rebuild: { ok: true, eventsFound: 6, differences: [] } });
    expect(report.rows).toEqual([
      { key: "cart", scope: "session", replayed: 3, snapshot: 3, matches: true },
      { key: "discount", scope: "session", replayed: "VIP", snapshot: "VIP", matches: true },
    ]);
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
    const view = await sessionView(database.service, TICKET_BOOKING.id);
    expect(view.initialState).toEqual({});
    const timeline = historyTimeline(view);
    expect(sessionStep(view, timeline, 6).state).toEqual(view.state);
  });

  it("lists each divergence when a write outside an event reached the stored snapshot", async () => {
    const session = await database.service.create({ app: "tickets", user: "bob", id: "planted", state: { seats: "A1" } });
    await database.service.appendEvent(session, { id: "E1", author: "booking-agent", actions: { stateDelta: { cart: 2 } } });
    // The seed's lost write, planted below the service: the discount reaches the snapshot but no event.
    await database.client.exec(`UPDATE sessions SET state = '{"cart": 5, "seats": "A1", "discount": "VIP"}' WHERE id = 'planted'`);
    const report = await rebuildReport(database.service, "planted");
    expect(report.rebuild.ok).toBe(false);
    expect(report.rebuild.summary).toBe('cart: stored 5, replay gives 2; discount: stored "VIP", replay gives nothing');
    expect(report.rows).toEqual([
      { key: "cart", scope: "session", replayed: 2, snapshot: 5, matches: false },
      { key: "discount", scope: "session", replayed: undefined, snapshot: "VIP", matches: false },
      { key: "seats", scope: "session", replayed: "A1", snapshot: "A1", matches: true },
    ]);
    await expect(rebuildReport(database.service, "no-such-session")).rejects.toMatchObject({ code: "not_found" });
  });
});
