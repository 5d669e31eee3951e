import { expect, test } from "@playwright/test";

// The demo (written on the first start of the e2e database) holds the seed's ticket-booking session.

test("GET /api/sessions lists the demo session, filtered by app and user", async ({ request }) => {
  const all = await request.get("/api/sessions");
  expect(all.status()).toBe(200);
  const { sessions } = (await all.json()) as { sessions: Array<{ id: string; app: string; user: string; revision: number }> };
  expect(sessions).toContainEqual(expect.objectContaining({ id: "ticket-booking", app: "tickets", user: "ann", revision: 6 }));
  const mine = await (await request.get("/api/sessions?app=tickets&user=ann")).json();
  expect(mine.sessions.map((session: { id: string }) => session.id)).toContain("ticket-booking");
  expect((await (await request.get("/api/sessions?app=no-such-app")).json()).sessions).toEqual([]);
  const bad = await request.get("/api/sessions?limit=0");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.code).toBe("bad_input");
});

test("GET /api/sessions/{id} gives the rebuilt state, the events and the rebuild check; ?at=N the state after N events", async ({ request }) => {
  const whole = await request.get("/api/sessions/ticket-booking");
  expect(whole.status()).toBe(200);
  const view = await whole.json();
  expect(view).toMatchObject({ id: "ticket-booking", revision: 6, at: 6, state: { cart: 3, discount: "VIP" }, rebuild: { ok: true, eventsFound: 6 } });
  expect(view.state).not.toHaveProperty("temp:quote");
  expect(view.events.map((event: { id: string }) => event.id)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6"]);

  const third = await (await request.get("/api/sessions/ticket-booking?at=3")).json();
  expect(third.state).toEqual({ cart: 2 });
  expect(third.changes).toEqual([{ key: "temp:quote", scope: "temp", kind: "unrecorded", persisted: false }]);
  expect((await (await request.get("/api/sessions/ticket-booking?at=0")).json()).state).toEqual({});

  for (const at of ["7", "-1", "two"]) {
    const bad = await request.get(`/api/sessions/ticket-booking?at=${at}`);
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.code).toBe("bad_input");
  }
  const missing = await request.get("/api/sessions/no-such-session");
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "not_found", message: 'no session with id "no-such-session"' } });
});
