/**
 * Session benchmarks on the server (issue "Sessions"):
 * - sessionAppend: `appendEvent` (one statement: idempotency, revision check, event, snapshot)
 *   against a bare single-row INSERT loop through postgres.js into a table of the same shape and
 *   keys as session_events, the two loops alternating in blocks of five operations (see `alternating`);
 * - sessionGet: `get` of a 10,000-event session (rebuilt by replaying its deltas), median of rounds.
 */
import postgres from "postgres";
import { SessionService, type Session } from "../lib/sessions/index";
import { openDatabase, resolveDatabase } from "../lib/store/index";
import { alternating, interleaved, time, type Benchmark } from "./harness";

const ROUNDS = 12;
const PER_ROUND = 250;
/** Untimed rounds first (1,500 calls of each loop): the figures are steady-state, not the JIT's warm-up. */
const WARMUP = 6;
const CONTENT = { role: "model", parts: [{ text: "x".repeat(900) }] };

const sessionAppend: Benchmark = {
  name: "sessionAppend",
  async run(context) {
    const url = await context.serverDatabase();
    const client = await openDatabase(resolveDatabase(url), { poolSize: 1 });
    const service = new SessionService(client);
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    // The same columns, primary key and unique key as session_events (LIKE copies no foreign key).
    await bare`create table bare_session_events (like session_events including all)`;
    const content = JSON.stringify(CONTENT);
    const sessions: Session[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) sessions.push(await service.create({ app: "bench", user: "u", id: `session-${round}` }));
    const { append: appendPerSec, insert: insertPerSec } = await alternating(
      {
        insert: (round, index) =>
          bare`insert into bare_session_events (session_id, seq, id, author, invocation_id, content, state_delta, "timestamp")
               values (${`bare-${round}`}, ${index}, ${`event-${index}`}, 'agent', 'inv', ${content}::text::json, ${JSON.stringify({ counter: index })}::text::json, now())`,
        append: (round, index) =>
          service.appendEvent(sessions[round]!, { id: `event-${index}`, author: "agent", invocationId: "inv", content: CONTENT, actions: { stateDelta: { counter: index } } }),
      },
      { rounds: ROUNDS, perRound: PER_ROUND, warmup: WARMUP },
    );
    await bare.end();
    await client.close();
    return { sessionAppendPerSec: appendPerSec, insertPerSec, sessionAppendVsInsert: appendPerSec / insertPerSec, rounds: ROUNDS, perRound: PER_ROUND, warmupRounds: WARMUP };
  },
};

const sessionGet: Benchmark = {
  name: "sessionGet",
  async run(context) {
    const url = await context.serverDatabase();
    const client = await openDatabase(resolveDatabase(url));
    const service = new SessionService(client);
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    // Written through appendEvent (the real path), each event changing a few keys.
    const session = await service.create({ app: "bench", user: "u", id: "get-10k" });
    for (let index = 0; index < 10_000; index += 1) {
      await service.appendEvent(session, {
        id: `event-${index}`,
        author: index % 2 === 0 ? "user" : "agent",
        content: { role: "model", parts: [{ text: `turn ${index}: ${"y".repeat(200)}` }] },
        actions: { stateDelta: { counter: index, [`key-${index % 50}`]: { at: index } } },
      });
    }
    const { get: sessionGet10kMs, select: selectMs } = await interleaved(9, {
      select: async () =>
        (await time(() => bare`select seq, id, author, invocation_id, content, state_delta, temp_keys, "timestamp" from session_events where session_id = 'get-10k' order by seq`))
          .ms,
      get: async () => (await time(() => service.get("get-10k"))).ms,
    });
    const check = await service.get("get-10k");
    if (check?.events.length !== 10_000 || check.state.counter !== 9_999 || !check.rebuild?.ok) throw new Error("get returned the wrong session");
    await bare.end();
    await client.close();
    return { sessionGet10kMs, selectMs };
  },
};

export const sessionBenchmarks: Benchmark[] = [sessionAppend, sessionGet];
