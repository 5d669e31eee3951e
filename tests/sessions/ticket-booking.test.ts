/**
 * The session-recovery seed's fixture, E1–E6, on PGlite and the server, across a real process
 * restart: a child process writes the conversation and exits; fresh processes (the CLI, then this
 * one) rebuild the state from what was persisted.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ticketBookingEvents, TICKET_BOOKING } from "@/lib/demo/ticket-booking";
import { SessionService, sessionTimeline, type Session, type SessionView, type TimelineEvent } from "@/lib/sessions";
import { openDatabase, resolveDatabase } from "@/lib/store";
import { childArgs } from "../helpers/processes";
import { SESSION_DATABASES } from "./databases";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const WRITER = join(import.meta.dirname, "child", "ticket-booking-writer.ts");

interface ChildReport {
  live: Record<string, unknown>;
  revision: number;
  retryCreated?: boolean;
  refused?: { code: string; message: string } | null;
}

/** Runs the writer in its own process and returns what its live session showed. */
async function writeInChild(url: string, recording: "absolute" | "increment"): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, [...childArgs(WRITER), url, recording], { cwd: ROOT, timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ChildReport;
}

/** The application's own arithmetic for increment-style deltas `{ cart: { add: n } }`. */
function cartFromIncrements(events: readonly TimelineEvent[]): number {
  return events.reduce((cart, event) => cart + ((event.actions?.stateDelta?.cart as { add?: number } | undefined)?.add ?? 0), 0);
}

/** Opens the database in this process (after the writer exited), reads the session, closes. */
async function rebuildHere(url: string): Promise<Session> {
  const client = await openDatabase(resolveDatabase(url));
  try {
    return (await new SessionService(client).get(TICKET_BOOKING.id)) as Session;
  } finally {
    await client.close();
  }
}

describe.each(SESSION_DATABASES)("the seed's ticket-booking fixture: $name", { timeout: 180_000 }, (kind) => {
  it("written the faulty way: the duplicate is dropped and the direct write refused, where replay alone would give cart 4 and no discount", async () => {
    const { events, discount } = ticketBookingEvents("increment");
    // What the user saw before the restart: 2 tickets, then 1 more, and the VIP discount.
    const sawCart = 3;
    // Without the guards, storage keeps every append (E5 twice) and never sees the direct write.
    const unguardedLog = [...events, events[4] as TimelineEvent];
    expect(unguardedLog).toHaveLength(6);
    expect(cartFromIncrements(unguardedLog)).toBe(4);
    expect(unguardedLog.some((event) => event.actions?.stateDelta && "discount" in event.actions.stateDelta)).toBe(false);
    expect(discount.actions?.stateDelta).toEqual({ discount: "VIP" });

    const database = await kind.fresh();
    try {
      const child = await writeInChild(database.url, "increment");
      expect(child.retryCreated).toBe(false);
      expect(child.refused?.code).toBe("read_only_state");
      expect(child.refused?.message).toContain("stateDelta");
      // The live session never pretended: the refused write left no discount on it either.
      expect(child.live).not.toHaveProperty("discount");
      expect(child.revision).toBe(5);

      const rebuilt = await rebuildHere(database.url);
      expect(rebuilt.events.map((event) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5"]);
      // The duplicate was dropped at append time, which even fixes the increment arithmetic.
      expect(cartFromIncrements(rebuilt.events)).toBe(sawCart);
      expect(rebuilt.state.discount).toBeUndefined();
      expect(rebuilt.state).not.toHaveProperty("temp:quote");
      // The service's values are absolute: an increment is stored as the key's value, last one wins.
      expect(rebuilt.state.cart).toEqual({ add: 1 });
      expect(rebuilt.rebuild?.ok).toBe(true);
    } finally {
      await database.remove();
    }
  });

  it("written with absolute deltas through events: after a restart the state is cart 3, discount VIP, and no temp:quote", async () => {
    const database = await kind.fresh();
    try {
      const child = await writeInChild(database.url, "absolute");
      expect(child.live).toEqual({ cart: 3, "temp:quote": "Q-77", discount: "VIP" });

      // A fresh process: the command line.
      const { stdout } = await run(process.execPath, ["bin/backtrack.mjs", "session", TICKET_BOOKING.id, "--json", "--db", database.url], { cwd: ROOT, timeout: 60_000 });
      const view = JSON.parse(stdout) as SessionView;
      expect(view).toMatchObject({ id: "ticket-booking", revision: 6, at: 6, state: { cart: 3, discount: "VIP" }, rebuild: { ok: true } });
      expect(view.state).not.toHaveProperty("temp:quote");
      expect(view.events.map((event) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6"]);

      // Another fresh process: this one.
      const rebuilt = await rebuildHere(database.url);
      expect(rebuilt.state).toEqual({ cart: 3, discount: "VIP" });
      expect(rebuilt.events.map((event) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6"]);
      expect(rebuilt.rebuild).toMatchObject({ ok: true, eventsFound: 6 });
      const steps = sessionTimeline(rebuilt.initialState, rebuilt.events);
      expect(steps.map((step) => step.state.cart ?? null)).toEqual([null, 2, 2, 2, 3, 3]);
      expect(steps[2]?.changes).toEqual([{ key: "temp:quote", scope: "temp", kind: "unrecorded", before: undefined, after: undefined, persisted: false }]);
      expect(steps[5]?.state).toEqual(rebuilt.state);
    } finally {
      await database.remove();
    }
  });
});

describe("an embedded database reached through its owner process", { timeout: 180_000 }, () => {
  it("takes the fixture's appends (one statement each) from a second process, duplicate included", async () => {
    const pglite = SESSION_DATABASES.find((kind) => kind.name === "pglite");
    const database = await pglite!.fresh();
    // This process owns the folder; the writer becomes its client and sends every statement here.
    const owner = await openDatabase(resolveDatabase(database.url), { ownerOnly: true });
    try {
      const child = await writeInChild(database.url, "absolute");
      expect(child.live).toEqual({ cart: 3, "temp:quote": "Q-77", discount: "VIP" });
      const session = (await new SessionService(owner).get(TICKET_BOOKING.id)) as Session;
      expect(session.state).toEqual({ cart: 3, discount: "VIP" });
      expect(session.events.map((event) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6"]);
    } finally {
      await owner.close();
      await database.remove();
    }
  });
});
