/**
 * The demo's sessions and the command line (`sessions`, `session <id> [--at N] [--json]`), run
 * in-process on PGlite and the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDemoSessions } from "@/lib/demo/ticket-booking";
import { MemStore } from "@/lib/journal/memory-store";
import type { SessionView } from "@/lib/sessions";
import { openStore } from "@/lib/store";
import { runMain } from "../helpers/cli";
import { SESSION_DATABASES } from "./databases";

const cli = (...argv: string[]) => runMain(argv);

describe.each(SESSION_DATABASES)("demo sessions and the command line: $name", { timeout: 120_000 }, (kind) => {
  let database: { url: string; remove: () => Promise<void> | void };
  // Held open while the commands run: on PGlite each in-process command shares it instead of starting PGlite again.
  let held: Awaited<ReturnType<typeof openStore>>;

  beforeAll(async () => {
    database = await kind.fresh();
    // Written twice, as `backtrack demo` run twice would: the second run stores nothing new.
    for (let round = 0; round < 2; round += 1) {
      const store = await openStore({ url: database.url });
      await writeDemoSessions(store);
      await store.close();
    }
    held = await openStore({ url: database.url });
  });
  afterAll(async () => {
    await held.close();
    await database.remove();
  });

  it("lists the demo session, filtered by app and user", async () => {
    const all = await cli("sessions", "--json", "--db", database.url);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).sessions).toEqual([expect.objectContaining({ id: "ticket-booking", app: "tickets", user: "ann", revision: 6 })]);
    expect(JSON.parse((await cli("sessions", "--json", "--app", "other", "--db", database.url)).stdout).sessions).toEqual([]);
    const text = await cli("sessions", "--user", "ann", "--db", database.url);
    expect(text.stdout).toMatch(/ticket-booking\s+tickets\s+ann\s+6/);
    expect((await cli("sessions", "--limit", "0", "--db", database.url)).code).toBe(2);
  });

  it("shows a session's events and its state as of event N", async () => {
    const whole = await cli("session", "ticket-booking", "--json", "--db", database.url);
    expect(whole.code).toBe(0);
    const view = JSON.parse(whole.stdout) as SessionView;
    expect(view).toMatchObject({ id: "ticket-booking", revision: 6, at: 6, state: { cart: 3, discount: "VIP" }, rebuild: { ok: true } });
    expect(view.events.map((event) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6"]);

    const third = JSON.parse((await cli("session", "ticket-booking", "--at", "3", "--json", "--db", database.url)).stdout) as SessionView;
    expect(third.state).toEqual({ cart: 2 });
    expect(third.changes).toEqual([{ key: "temp:quote", scope: "temp", kind: "unrecorded", persisted: false }]);

    const text = await cli("session", "ticket-booking", "--at", "5", "--db", database.url);
    expect(text.stdout).toContain("state after 5 of 6 events:");
    expect(text.stdout).toMatch(/cart\s+3/);
    expect(text.stdout.slice(0, text.stdout.indexOf("EVENT"))).not.toContain("discount");
    expect(text.stdout).toContain("temp:quote (not persisted)");
    expect(text.stdout).toMatch(/\(6\)\s+E6/);
  });

  it("exits 2 for an unknown session or a bad --at, and 1 when the stored state disagrees with the replay", async () => {
    expect(await cli("session", "no-such-session", "--db", database.url)).toMatchObject({ code: 2, stderr: expect.stringContaining('no session with id "no-such-session"') });
    for (const at of ["7", "-1", "two"]) expect((await cli("session", "ticket-booking", "--at", at, "--db", database.url)).code).toBe(2);

    const store = await openStore({ url: database.url });
    await store.client.exec(`UPDATE sessions SET state = '{"cart": 4}' WHERE id = 'ticket-booking'`);
    await store.close();
    const tampered = await cli("session", "ticket-booking", "--json", "--db", database.url);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("does not match the replay");
    expect(JSON.parse(tampered.stdout).rebuild.differences).toEqual(
      [
        { scope: "session", key: "cart", snapshot: 4, replayed: 3 },
        { scope: "session", key: "discount", snapshot: undefined, replayed: "VIP" },
      ].map((difference) => JSON.parse(JSON.stringify(difference))),
    );
  });
});

describe("demo sessions on a store without a database", () => {
  it("writes nothing and does not fail on MemStore", async () => {
    await expect(writeDemoSessions(new MemStore())).resolves.toBeUndefined();
  });
});
