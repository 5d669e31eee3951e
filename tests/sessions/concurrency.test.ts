/**
 * Concurrent appenders on one session (PGlite and the server, the server over a pool of real
 * connections): every append lands or is refused as stale and retried after a reload; no update
 * is lost, no event is stored twice, and the final state is the replay of the stored events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayState, SessionNotFoundError, StaleSessionError, type Session } from "@/lib/sessions";
import { SESSION_DATABASES, type SessionDatabase } from "./databases";

const APPENDERS = 8;
const EACH = 6;

describe.each(SESSION_DATABASES)("concurrent appenders: $name", (kind) => {
  let database: SessionDatabase;

  beforeAll(async () => {
    database = await kind.open({ poolSize: 10 });
  });
  afterAll(async () => {
    await database.close();
  });

  it(`${APPENDERS} read-modify-write appenders lose no update`, async () => {
    const { service } = database;
    await service.create({ app: "race", user: "ann", id: "counter", state: { counter: 0 } });
    let stale = 0;
    const appender = async (worker: number) => {
      for (let step = 0; step < EACH; step += 1) {
        let session = (await service.get("counter")) as Session;
        for (;;) {
          try {
            // Absolute values computed from the state this object was loaded with: only safe because a stale object is refused.
            await service.appendEvent(session, {
              id: `w${worker}-${step}`,
              author: `worker-${worker}`,
              actions: { stateDelta: { counter: (session.state.counter as number) + 1, [`worker-${worker}`]: step + 1 } },
            });
            break;
          } catch (error) {
            if (!(error instanceof StaleSessionError)) throw error;
            stale += 1;
            session = (await service.get("counter")) as Session;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: APPENDERS }, (_, worker) => appender(worker)));

    const final = (await service.get("counter")) as Session;
    expect(stale).toBeGreaterThan(0);
    expect(final.revision).toBe(APPENDERS * EACH);
    expect(final.state.counter).toBe(APPENDERS * EACH);
    for (let worker = 0; worker < APPENDERS; worker += 1) expect(final.state[`worker-${worker}`]).toBe(EACH);
    expect(final.state).toEqual(replayState({ counter: 0 }, final.events));
    expect(final.rebuild?.ok).toBe(true);
    const ids = final.events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(final.events.map((event) => event.index)).toEqual(ids.map((_, index) => index));
    const [counts] = await database.client.query<{ total: number; distinct_ids: number }>(
      `SELECT count(*)::int AS total, count(DISTINCT id)::int AS distinct_ids FROM session_events WHERE session_id = 'counter'`,
    );
    expect(counts).toEqual({ total: APPENDERS * EACH, distinct_ids: APPENDERS * EACH });
  });

  it(`${APPENDERS} appenders sending one event id store it once`, async () => {
    const { service } = database;
    await service.create({ app: "race", user: "ann", id: "one-id" });
    const outcomes = await Promise.all(
      Array.from({ length: APPENDERS }, async (_, worker) => {
        let session = (await service.get("one-id")) as Session;
        for (;;) {
          try {
            return await service.append(session, { id: "retried", author: `worker-${worker}`, actions: { stateDelta: { cart: 3 } } });
          } catch (error) {
            if (!(error instanceof StaleSessionError)) throw error;
            session = (await service.get("one-id")) as Session;
          }
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    const winner = outcomes.find((outcome) => outcome.created)?.event;
    for (const outcome of outcomes) expect(outcome.event).toEqual(winner);
    const final = (await service.get("one-id")) as Session;
    expect(final.events.map((event) => event.id)).toEqual(["retried"]);
    expect(final.state).toEqual({ cart: 3 });
  });

  it("a delete while appends are in flight leaves no event behind, and the id can be created anew", async () => {
    const { service, client } = database;
    await service.create({ app: "race", user: "ann", id: "doomed" });
    let landed = 0;
    // A promise, not a timer: on the embedded database appends may never yield to the timer queue.
    let reachTwelve = () => undefined as void;
    const twelve = new Promise<void>((resolve) => (reachTwelve = resolve));
    const appender = async (worker: number) => {
      for (let step = 0; ; step += 1) {
        const session = await service.get("doomed");
        if (!session) return;
        try {
          await service.appendEvent(session, { id: `w${worker}-${step}`, author: `worker-${worker}`, actions: { stateDelta: { last: worker } } });
          landed += 1;
          if (landed === 12) reachTwelve();
        } catch (error) {
          if (error instanceof SessionNotFoundError) return;
          if (!(error instanceof StaleSessionError)) throw error;
        }
      }
    };
    const deleter = async () => {
      await twelve;
      expect(await service.delete("doomed")).toBe(true);
    };
    await Promise.all([deleter(), ...Array.from({ length: APPENDERS }, (_, worker) => appender(worker))]);

    expect(landed).toBeGreaterThanOrEqual(12);
    const [orphans] = await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM session_events WHERE session_id = 'doomed'`);
    expect(orphans?.count).toBe(0);
    const reborn = await service.create({ app: "race", user: "ann", id: "doomed" });
    expect(reborn.revision).toBe(0);
    expect((await service.get("doomed"))?.events).toEqual([]);
  });
});
